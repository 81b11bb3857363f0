import { IDENTIFIABLE_FIELDS } from '@pathway/contract';
import { describe, expect, it } from 'vitest';
import { INLINE_EDITABLE } from './cellEdit';
import { PARTICIPANT_FIELDS, fieldLabel, gridFields } from './participantFields';

describe('the participant field table', () => {
  it('marks as identifiable exactly the contract list', () => {
    for (const [name, spec] of Object.entries(PARTICIPANT_FIELDS)) {
      expect([name, spec.identifiable]).toEqual([
        name,
        (IDENTIFIABLE_FIELDS as readonly string[]).includes(name),
      ]);
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
