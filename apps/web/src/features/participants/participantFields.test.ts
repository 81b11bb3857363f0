import { describe, expect, it } from 'vitest';
import { INLINE_EDITABLE } from './cellEdit';
import { PARTICIPANT_FIELDS, fieldLabel, gridFields } from './participantFields';

describe('the participant field table', () => {
  it('marks as identifiable every contact field of the table, and nothing else', () => {
    // Written out: a field dropped from (or wrongly added to) the contract's list changes this.
    const identifiable = Object.entries(PARTICIPANT_FIELDS)
      .filter(([, spec]) => spec.identifiable)
      .map(([name]) => name)
      .sort();
    expect(identifiable).toEqual([
      'address',
      'date_of_birth',
      'email',
      'first_name',
      'last_name',
      'nhs_number',
      'notes',
      'phone_number',
      'phone_number_secondary',
    ]);
    for (const name of ['gender', 'language']) {
      expect(PARTICIPANT_FIELDS[name as keyof typeof PARTICIPANT_FIELDS]?.identifiable, name).toBe(false);
    }
  });

  it('gives the grid the columns of the spec, and basic access none that is identifiable', () => {
    expect(gridFields(true)).toEqual([
      'first_name',
      'last_name',
      'date_of_birth',
      'nhs_number',
      'email',
      'phone_number',
      'gender',
      'language',
    ]);
    expect(gridFields(false)).toEqual(['gender', 'language']);
    expect(gridFields(true).map((name) => fieldLabel(name, 'grid'))).toEqual([
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

  it('makes inline-editable the cells the inline edit rules check', () => {
    const inline = Object.entries(PARTICIPANT_FIELDS)
      .filter(([, spec]) => spec.editable.inline)
      .map(([name]) => name);
    expect(inline.sort()).toEqual([...INLINE_EDITABLE].sort());
  });
});
