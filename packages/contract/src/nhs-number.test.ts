import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';
import {
  OPTIONAL_IMPORT_COLUMNS,
  PARTICIPANT_IMPORT_COLUMNS,
  createParticipantBody,
  formatNhsNumber,
  isValidNhsNumber,
  nhsNumber,
  participantImportRow,
  updateParticipantBody,
} from './participants.js';

// Numbers worked by hand with the NHS rule (weights 10..2 on the first nine digits).
const VALID = [
  '9434765919', // check digit 9
  '4010232137', // check digit 7
  '9434765870', // 11 - 0 = 11, written 0
  '1000000060', // 11 counts as 0 here too
];
const INVALID = [
  '9434765918', // one digit mistyped: the check digit is 9
  '4857773456', // the NHS's display example: its check digit would be 7
  '1234567890', // the first nine give a check of 10: no valid number starts so
  '1234567891',
  '4010232173', // two digits swapped
];

describe('the NHS number rule (modulus 11)', () => {
  it('accepts numbers whose check digit matches, 11 counting as 0', () => {
    for (const n of VALID) expect(isValidNhsNumber(n), n).toBe(true);
  });

  it('refuses a wrong check digit, a check of 10, and anything but 10 digits', () => {
    for (const n of INVALID) expect(isValidNhsNumber(n), n).toBe(false);
    for (const n of ['943476591', '94347659190', '943476591a', ''])
      expect(isValidNhsNumber(n), n).toBe(false);
  });

  it('catches every single mistyped digit and every swap of two adjacent digits of a valid number', () => {
    for (const valid of VALID) {
      for (let i = 0; i < 10; i++) {
        for (let d = 0; d <= 9; d++) {
          const typed = `${valid.slice(0, i)}${d}${valid.slice(i + 1)}`;
          if (typed !== valid) expect(isValidNhsNumber(typed), typed).toBe(false);
        }
        if (i < 9 && valid[i] !== valid[i + 1]) {
          const swapped = `${valid.slice(0, i)}${valid[i + 1]}${valid[i]}${valid.slice(i + 2)}`;
          expect(isValidNhsNumber(swapped), swapped).toBe(false);
        }
      }
    }
  });

  it('takes the number with or without spaces and keeps the 10 digits; blank means none', () => {
    expect(nhsNumber.parse('943 476 5919')).toBe('9434765919');
    expect(nhsNumber.parse(' 9434765919 ')).toBe('9434765919');
    expect(nhsNumber.parse('94 3476 59 19')).toBe('9434765919');
    expect(nhsNumber.parse('')).toBeNull();
    expect(nhsNumber.parse('   ')).toBeNull();
    expect(nhsNumber.parse(null)).toBeNull();
    expect(nhsNumber.parse(undefined)).toBeNull();
  });

  it('refuses with the clear messages of the contract', () => {
    const first = (v: unknown) => nhsNumber.safeParse(v).error?.issues[0]?.message;
    expect(first('943-476-5919')).toBe(messages.nhsNumber.format);
    expect(first('943476591')).toBe(messages.nhsNumber.format);
    expect(first(9434765919)).toBe(messages.nhsNumber.format);
    expect(first('943 476 5918')).toBe(messages.nhsNumber.checkDigit);
    expect(first('1234567890')).toBe(messages.nhsNumber.checkDigit);
  });

  it('is shown as 3-3-4', () => {
    expect(formatNhsNumber('9434765919')).toBe('943 476 5919');
    expect(formatNhsNumber(null)).toBe('');
  });

  it('is a field of the add body and of the PATCH body (optional on both)', () => {
    expect(createParticipantBody.shape.nhs_number).toBe(nhsNumber);
    expect(updateParticipantBody.shape.nhs_number.safeParse(undefined).success).toBe(true);
  });
});

describe('the bulk-referral CSV', () => {
  it("has the add form's columns less the device, in the template's order", () => {
    // Written out: the template staff fill in changes only on purpose.
    expect(PARTICIPANT_IMPORT_COLUMNS).toEqual([
      'first_name',
      'last_name',
      'gender',
      'date_of_birth',
      'nhs_number',
      'email',
      'phone_number',
      'phone_number_secondary',
      'address',
      'language',
      'notes',
      'programme_referred_to',
      'referring_organisation',
      'referring_healthcare_professional',
      'referring_healthcare_professional_role',
      'checked_contraindications_to_exercise',
      'smoker',
      'diabetes',
      'registered_deaf',
    ]);
    expect(Object.keys(participantImportRow.shape)).toEqual([...PARTICIPANT_IMPORT_COLUMNS]);
  });

  it('may leave out only the columns the add form does not require', () => {
    expect(OPTIONAL_IMPORT_COLUMNS).toEqual([
      'gender',
      'nhs_number',
      'email',
      'phone_number_secondary',
      'notes',
    ]);
  });
});
