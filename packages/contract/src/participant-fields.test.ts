import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';
import {
  PARTICIPANT_FIELDS,
  createParticipantBody,
  editParticipantForm,
  participantBasic,
  participantField,
  participantFieldsWhere,
  participantFull,
  referral,
  referralBody,
  updateParticipantBody,
  type ParticipantFieldName,
} from './participants.js';

/** An add request every rule accepts. */
const valid = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  gender: 'female',
  date_of_birth: '1950-02-03',
  nhs_number: '943 476 5919',
  email: 'ada@example.org',
  phone_number: '+447700900123',
  phone_number_secondary: '0113 496 0000',
  address: '1 Test Street, Leeds',
  language: 'English',
  unique_device_id: '2F1C0B9E-0000-4000-8000-000000000001',
  notes: 'Prefers mornings',
  programme_referred_to: 'pad-programme',
  referring_organisation: 'Leeds Vascular',
  referring_healthcare_professional: 'Dr Who',
  referring_healthcare_professional_role: 'Consultant',
  checked_contraindications_to_exercise: true,
  smoker: false,
  diabetes: false,
  registered_deaf: false,
};

/** The messages of a refused add request with `name` set to `value` (undefined: left out). */
function refusal(name: string, value: unknown): string[] {
  const body: Record<string, unknown> = { ...valid, [name]: value };
  if (value === undefined) delete body[name];
  const parsed = createParticipantBody.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

const names = Object.keys(PARTICIPANT_FIELDS) as ParticipantFieldName[];

describe('the participant field table drives the contract', () => {
  it('accepts the valid request it tests against', () => {
    expect(createParticipantBody.safeParse(valid).success).toBe(true);
  });

  it("takes in each request exactly the fields with a rule, in the table's order", () => {
    const ruled = names.filter((name) => participantField(name).rule !== undefined);
    // The site is no field of the participant's record but where it is kept: chosen on add only.
    expect(Object.keys(createParticipantBody.shape)).toEqual([...ruled, 'site_id']);
    expect(Object.keys(updateParticipantBody.shape)).toEqual([...ruled, 'purge_cache']);
    expect(Object.keys(referralBody.shape)).toEqual(
      ruled.filter((name) => participantField(name).answer?.in === 'referral'),
    );
    expect(Object.keys(editParticipantForm.shape)).toEqual(
      ruled.filter((name) => participantField(name).editable?.dialog),
    );
  });

  it('answers a field marked identifiable to full access only, and the rest to everyone', () => {
    for (const name of names) {
      const spec = participantField(name);
      if (spec.answer?.in === 'participant') {
        expect(Object.keys(participantFull.shape), name).toContain(name);
        expect(Object.keys(participantBasic.shape).includes(name), name).toBe(spec.access === undefined);
      } else if (spec.answer?.in === 'referral') {
        expect(Object.keys(participantFull.shape), name).not.toContain(name);
      }
      expect(Object.keys(referral.shape).includes(name), name).toBe(spec.answer?.in === 'referral');
    }
  });

  it("gives an answer's field the nullability the table declares", () => {
    for (const name of participantFieldsWhere((spec) => spec.answer?.in === 'participant')) {
      const nullable = participantField(name).answer!.nullable;
      const schema = participantFull.shape[name as keyof typeof participantFull.shape];
      expect(schema.safeParse(null).success, name).toBe(nullable);
    }
  });

  it("refuses a missing required field with its rule's own message", () => {
    for (const name of names) {
      const rule = participantField(name).rule;
      if (rule?.kind === 'text' || rule?.kind === 'choice' || rule?.kind === 'yesNo') {
        expect(refusal(name, undefined), name).toEqual([rule.empty]);
      }
      if (rule?.kind === 'text' || rule?.kind === 'choice')
        expect(refusal(name, ' '), name).toEqual([rule.empty]);
    }
  });

  it("refuses a choice outside its options, and a malformed email, with the rule's message", () => {
    for (const name of names) {
      const rule = participantField(name).rule;
      if (rule?.kind === 'choice' || rule?.kind === 'optionalChoice') {
        expect(refusal(name, 'Klingon'), name).toEqual([rule.invalid]);
      }
      if (rule?.kind === 'optionalText' && rule.email !== undefined) {
        expect(refusal(name, 'not an address'), name).toEqual([rule.email]);
      }
    }
  });

  it('checks a format the table gives for add on add only', () => {
    expect(refusal('phone_number', '01134960000')).toEqual([messages.participant.phoneFormat]);
    expect(updateParticipantBody.safeParse({ phone_number: '01134960000' }).success).toBe(true);
  });

  it('lets the edit form leave blank a choice required on add only', () => {
    const form = { ...editParticipantForm.parse({ ...valid }), language: '' };
    expect(editParticipantForm.safeParse(form).success).toBe(true);
    expect(refusal('language', '')).toEqual([messages.participant.languageEmpty]);
  });
});
