import {
  PARTICIPANT_GRID_FIELDS,
  participantField,
  participantFieldsWhere,
  type FieldPermission,
  type ParticipantFieldName,
  type ParticipantFieldsWhere,
  type ParticipantFormSection,
  type ParticipantGridField,
} from '@pathway/contract';

// No React, no date picker, no zod here: the participant list reads this at first paint. The
// fields themselves (labels, inputs, access, grid columns) are the contract's field table.

/** Whether the signed-in role opens a field permission (`useFieldAccess()`). */
type Opens = (permission: FieldPermission) => boolean;

/** Whether a role receives (and may change) a field: the field table's access, if any. */
export function opensField(opens: Opens, name: ParticipantFieldName): boolean {
  const access = participantField(name).access;
  return access === undefined || opens(access);
}

/** The fields with a grid column, in column order; those a role does not open are left out. */
export function gridFields(opens: Opens): ParticipantGridField[] {
  return PARTICIPANT_GRID_FIELDS.filter((name) => opensField(opens, name));
}

/** A field the add page takes. */
export type FormField = ParticipantFieldsWhere<{ form: object }>;
const byPosition = (a: FormField, b: FormField) =>
  participantField(a).form!.position - participantField(b).form!.position;

/** The add page's fields of one section, in page order. */
export function formFieldsOf(section: ParticipantFormSection): FormField[] {
  return participantFieldsWhere<FormField>((field) => field.form?.section === section).sort(byPosition);
}

/** A participant's own field changed in the edit dialog. */
export type DialogField = ParticipantFieldsWhere<{ editable: { dialog: true } }>;

/** The edit dialog's fields: in the add page's order, those spanning the dialog last. */
export const EDIT_DIALOG_FIELDS: readonly DialogField[] = participantFieldsWhere<DialogField>(
  (field) => field.editable?.dialog === true,
).sort((a, b) => {
  const wide = (name: DialogField) => (participantField(name).form?.wide === undefined ? 0 : 1);
  return wide(a) - wide(b) || byPosition(a, b);
});

/** The cells a full-access admin may edit in the grid. */
export type InlineField = ParticipantFieldsWhere<{ editable: { inline: true } }>;
export const INLINE_EDITABLE: readonly InlineField[] = participantFieldsWhere<InlineField>(
  (field) => field.editable?.inline === true,
);

/**
 * Whether a form marks a field required: its rule refuses it missing (a choice with
 * optionalOnEdit only on the add page).
 */
export function requiredOn(name: ParticipantFieldName, form: 'add' | 'edit'): boolean {
  const rule = participantField(name).rule;
  if (rule === undefined) return false;
  if (rule.kind === 'choice') return form === 'add' || rule.optionalOnEdit !== true;
  return rule.kind !== 'optionalText' && rule.kind !== 'optionalChoice' && rule.kind !== 'nhsNumber';
}
