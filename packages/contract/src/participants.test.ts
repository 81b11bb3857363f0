import { describe, expect, it } from 'vitest';
import {
  CONTACT_FIELDS,
  IDENTIFIABLE_FIELDS,
  IDENTIFIABLE_SORTS,
  PARTICIPANT_CSV_BASIC_COLUMNS,
  PARTICIPANT_CSV_FULL_COLUMNS,
  REFERRAL_FIELDS,
  createParticipantBody,
  editParticipantForm,
  participantBasic,
  participantFull,
  referral,
  updateParticipantBody,
} from './participants.js';

describe('the one list of identifiable fields', () => {
  it('holds the contact fields (notes and last_ip_address among them) and every referral field', () => {
    // Written out: a field whose access is dropped from (or wrongly added to) the table changes this.
    expect(CONTACT_FIELDS).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'nhs_number',
      'email',
      'phone_number',
      'phone_number_secondary',
      'address',
      'notes',
      'last_ip_address',
      'discharge_note',
    ]);
    expect(REFERRAL_FIELDS).toEqual([
      'programme_referred_to',
      'referring_organisation',
      'referring_healthcare_professional',
      'referring_healthcare_professional_role',
      'checked_contraindications_to_exercise',
      'smoker',
      'diabetes',
      'registered_deaf',
    ]);
    expect(IDENTIFIABLE_FIELDS).toEqual([...CONTACT_FIELDS, ...REFERRAL_FIELDS]);
    expect(Object.keys(referral.shape)).toEqual(['participant_id', ...REFERRAL_FIELDS]);
  });

  it('shapes what basic access receives: the full participant less the identifiable fields', () => {
    const basic = Object.keys(participantBasic.shape);
    expect(basic.filter((key) => (IDENTIFIABLE_FIELDS as readonly string[]).includes(key))).toEqual([]);
    expect(Object.keys(participantFull.shape)).toEqual([...basic, ...CONTACT_FIELDS]);
    expect(PARTICIPANT_CSV_BASIC_COLUMNS).toEqual([
      'participant_id',
      'gender',
      'language',
      'name',
      'unique_device_id',
      'days_behind',
      'tracking',
      // Follow-up (issue 31): the last contact attempt, never its note.
      'last_contact_at',
      'last_contact_method',
      'last_contact_outcome',
    ]);
    // What full access's export adds to basic access's: the identifiable columns, written out.
    expect(PARTICIPANT_CSV_FULL_COLUMNS.filter((c) => !PARTICIPANT_CSV_BASIC_COLUMNS.includes(c))).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'nhs_number',
      'email',
      'phone_number',
    ]);
    for (const column of PARTICIPANT_CSV_BASIC_COLUMNS)
      expect((IDENTIFIABLE_FIELDS as readonly string[]).includes(column), column).toBe(false);
    expect(IDENTIFIABLE_SORTS).toEqual(['first_name', 'last_name', 'date_of_birth']);
  });
});

describe('the participant bodies, made from one declaration of the fields', () => {
  it('let a PATCH change every field an add takes, each optional, plus purge_cache only', () => {
    const created = Object.keys(createParticipantBody.shape);
    const updated = Object.keys(updateParticipantBody.shape);
    expect(updated.filter((key) => !created.includes(key))).toEqual(['purge_cache']);
    // The site changes by a transfer (its own route, audited), never by an edit.
    expect(created.filter((key) => !updated.includes(key))).toEqual(['site_id']);
    expect(updateParticipantBody.safeParse({}).success).toBe(true);
  });

  it('give the edit form the participant fields of the add form with the PATCH rules', () => {
    const form = Object.keys(editParticipantForm.shape);
    expect(form.filter((key) => !Object.keys(createParticipantBody.shape).includes(key))).toEqual([]);
    expect(editParticipantForm.shape.phone_number).toBe(updateParticipantBody.shape.phone_number.unwrap());
  });
});
