import { messages, todayIsoDate } from '@pathway/contract';
import { describe, expect, it } from 'vitest';
import { inlineChange } from './cellEdit';
import { trackingColour } from './tracking';

const before = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.org',
  phone_number: '+447700900123',
  date_of_birth: new Date(1961, 3, 12),
};

describe('inline edits of the grid', () => {
  it('sends the one field that changed, trimmed, and nothing when nothing did', () => {
    expect(inlineChange({ ...before, last_name: '  Byron ' }, before)).toEqual({ last_name: 'Byron' });
    expect(inlineChange({ ...before, date_of_birth: new Date(1960, 4, 17) }, before)).toEqual({
      date_of_birth: '1960-05-17',
    });
    expect(inlineChange({ ...before }, before)).toBeNull();
    expect(inlineChange({ ...before, last_name: 'Lovelace ' }, before)).toBeNull();
  });

  it("refuses an empty value with 'Value cannot be empty', whatever the column", () => {
    for (const field of ['first_name', 'last_name', 'email', 'phone_number'] as const) {
      expect(() => inlineChange({ ...before, [field]: '   ' }, before)).toThrow(messages.grid.valueEmpty);
    }
    expect(() => inlineChange({ ...before, date_of_birth: null }, before)).toThrow(messages.grid.valueEmpty);
  });

  it("refuses a date of birth typed only in part with the forms' message", () => {
    // The editor's value while a part is still dd, MM or yyyy.
    expect(() => inlineChange({ ...before, date_of_birth: new Date(Number.NaN) }, before)).toThrow(
      messages.participant.dobFormat,
    );
  });

  it('allows dates of birth from 1900-01-01 to today only', () => {
    expect(() => inlineChange({ ...before, date_of_birth: new Date(1899, 11, 31) }, before)).toThrow(
      messages.participant.dobRange,
    );
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    expect(() => inlineChange({ ...before, date_of_birth: tomorrow }, before)).toThrow(
      messages.participant.dobRange,
    );
    expect(inlineChange({ ...before, date_of_birth: new Date(1900, 0, 1) }, before)).toEqual({
      date_of_birth: '1900-01-01',
    });
    expect(inlineChange({ ...before, date_of_birth: new Date() }, before)).toEqual({
      date_of_birth: todayIsoDate(),
    });
  });
});

describe('tracking colours', () => {
  it('switch at 1 and 3 days behind: green, yellow, red', () => {
    expect(trackingColour(0).bg).toBe('#007F3B');
    expect(trackingColour(1).bg).toBe('#FFEB3B');
    expect(trackingColour(2).bg).toBe('#FFEB3B');
    expect(trackingColour(3).bg).toBe('#D5281B');
    expect(trackingColour(40).bg).toBe('#D5281B');
  });
});
