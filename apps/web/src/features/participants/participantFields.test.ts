import { fieldLabel, participantField, type FieldPermission } from '@pathway/contract';
import { describe, expect, it } from 'vitest';
import {
  EDIT_DIALOG_FIELDS,
  INLINE_EDITABLE,
  formFieldsOf,
  gridFields,
  requiredOn,
} from './participantFields';

const fullAccess = () => true;
const basicAccess = (permission: FieldPermission) => permission !== 'identifiable';

describe("the console's reading of the participant field table", () => {
  it('gives the grid the columns of the spec, and basic access none that is identifiable', () => {
    expect(gridFields(fullAccess)).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'nhs_number',
      'email',
      'phone_number',
      'gender',
      'language',
    ]);
    expect(gridFields(basicAccess)).toEqual(['gender', 'language']);
    expect(gridFields(fullAccess).map((name) => fieldLabel(name, 'grid'))).toEqual([
      'First name',
      'Last name',
      'DOB',
      'NHS number',
      'Email',
      'Phone number',
      'Gender',
      'Language',
    ]);
    expect(fieldLabel('date_of_birth', 'form')).toBe('Date of birth');
  });

  it('lays out the add page and the edit dialog as the spec has them', () => {
    expect(formFieldsOf('personal')).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'gender',
      'nhs_number',
    ]);
    expect(formFieldsOf('contact')).toEqual(['phone_number', 'phone_number_secondary', 'email', 'address']);
    expect(formFieldsOf('device')).toEqual(['unique_device_id', 'language', 'notes']);
    // The wide fields (address, notes) span the dialog at its end.
    expect(EDIT_DIALOG_FIELDS).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'gender',
      'nhs_number',
      'phone_number',
      'phone_number_secondary',
      'email',
      'language',
      'address',
      'notes',
    ]);
    expect(EDIT_DIALOG_FIELDS.map((name) => participantField(name).form?.input)).toEqual([
      'text',
      'text',
      'date',
      'gender',
      'nhs',
      'tel',
      'tel',
      'email',
      'language',
      'multiline',
      'multiline',
    ]);
  });

  it('marks required what the rules refuse missing: language on add only', () => {
    const required = (form: 'add' | 'edit') => EDIT_DIALOG_FIELDS.filter((name) => requiredOn(name, form));
    expect(required('add')).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'phone_number',
      'language',
      'address',
    ]);
    expect(required('edit')).toEqual(['first_name', 'last_name', 'date_of_birth', 'phone_number', 'address']);
    expect(requiredOn('unique_device_id', 'add')).toBe(true);
  });

  it('lets the grid edit in place the cells of the spec, and no other', () => {
    expect(INLINE_EDITABLE).toEqual(['first_name', 'last_name', 'date_of_birth', 'email', 'phone_number']);
  });
});
