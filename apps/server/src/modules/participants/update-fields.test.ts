import { and, eq, getTableColumns, gt, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REFERRAL_FIELDS,
  updateParticipantBody,
  type UpdateParticipantBody,
  type UpdateParticipantInput,
} from '@pathway/contract';
import { auditEvents, participants } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { addParticipant } from '../../../test/factories.js';
import { participantChanges } from './service.js';

/**
 * Every field of the PATCH body is written to its column, and the audit row names exactly the
 * fields written. The list of fields is the contract's update body itself, so a field added there
 * is covered here without touching this file (the samples' type makes it say what to send).
 */
type WrittenField = Exclude<keyof UpdateParticipantBody, 'unique_device_id'>;

/** A valid value for each field, different from what the factory's participant starts with. */
const SAMPLES: Record<WrittenField, unknown> = {
  first_name: 'Grace',
  last_name: 'Hopper',
  gender: 'male',
  date_of_birth: '1951-02-03',
  nhs_number: '943 476 5919',
  email: 'changed@example.org',
  phone_number: '0113 496 0000',
  phone_number_secondary: '07700 900999',
  address: '2 Changed Road, York',
  language: 'Polish',
  notes: 'Changed note',
  purge_cache: true,
  programme_referred_to: 'pad-programme',
  referring_organisation: 'York Practice',
  referring_healthcare_professional: 'Dr Changed',
  referring_healthcare_professional_role: 'Nurse',
  checked_contraindications_to_exercise: false,
  smoker: true,
  diabetes: false,
  registered_deaf: true,
};

const FIELDS = Object.keys(updateParticipantBody.shape).filter(
  (key): key is WrittenField => key !== 'unique_device_id',
);
const COLUMNS = getTableColumns(participants);
const isReferral = (field: string) => (REFERRAL_FIELDS as readonly string[]).includes(field);

let t: TestApp;
let full: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
});
afterAll(() => t.close());

async function columnValue(id: number, field: WrittenField): Promise<unknown> {
  const [row] = await t.ctx.database.db
    .select({ value: COLUMNS[field] })
    .from(participants)
    .where(eq(participants.participant_id, id));
  return row!.value;
}

async function lastAuditId(): Promise<number> {
  const [row] = await t.ctx.database.db
    .select({ id: sql<number>`coalesce(max(${auditEvents.audit_event_id}), 0)::int` })
    .from(auditEvents);
  return row!.id;
}

describe('PATCH /api/participant/{id}: what is recorded as changed is what is written', () => {
  it('covers every field of the update body', () => {
    expect(FIELDS.sort()).toEqual((Object.keys(SAMPLES) as WrittenField[]).sort());
  });

  it.each(FIELDS)('writes %s and records it, alone, as changed', async (field) => {
    const { participant } = await addParticipant(t, full);
    const id = participant.participant_id;
    const expected = updateParticipantBody.shape[field].parse(SAMPLES[field]);
    // A nullable column starts empty, so the value read afterwards can only have come from the PATCH.
    if (!COLUMNS[field].notNull) {
      await t.ctx.database.db
        .update(participants)
        .set({ [field]: null })
        .where(eq(participants.participant_id, id));
    }
    expect(await columnValue(id, field)).not.toEqual(expected);
    const mark = await lastAuditId();

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${id}`,
      headers: { cookie: full },
      payload: { [field]: SAMPLES[field] },
    });
    expect(res.statusCode).toBe(200);
    expect(await columnValue(id, field)).toEqual(expected);

    const events = await t.ctx.database.db
      .select({ action: auditEvents.action, detail: auditEvents.detail })
      .from(auditEvents)
      .where(
        and(
          gt(auditEvents.audit_event_id, mark),
          eq(auditEvents.participant_id, id),
          inArray(auditEvents.action, ['participant.update', 'referral.update']),
        ),
      );
    expect(events).toEqual([
      { action: isReferral(field) ? 'referral.update' : 'participant.update', detail: field },
    ]);
  });
});

describe('participantChanges', () => {
  const every = updateParticipantBody.parse({ ...SAMPLES, unique_device_id: 'empty' });

  it('writes exactly the fields it records: every sent key but the device choice', () => {
    const { columns, participantFields, referralFields } = participantChanges(every);
    expect(Object.keys(columns).sort()).toEqual([...participantFields, ...referralFields].sort());
    expect(Object.keys(columns).sort()).toEqual([...FIELDS].sort());
    expect(referralFields).toEqual([...REFERRAL_FIELDS]);
    expect(columns).not.toHaveProperty('unique_device_id');
  });

  it('leaves out what was not sent', () => {
    const { columns, participantFields, referralFields } = participantChanges(
      updateParticipantBody.parse({ address: '3 Lane, Hull', smoker: false }),
    );
    expect(columns).toEqual({ address: '3 Lane, Hull', smoker: false });
    expect(participantFields).toEqual(['address']);
    expect(referralFields).toEqual(['smoker']);
  });

  it('writes and records a field it has no list entry for (a field added to the contract)', () => {
    const planted = { ...every, planted_field: 'x' } as UpdateParticipantInput;
    const { columns, participantFields } = participantChanges(planted);
    expect(columns).toHaveProperty('planted_field', 'x');
    expect(participantFields).toContain('planted_field');
  });
});
