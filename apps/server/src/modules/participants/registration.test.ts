import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidNhsNumber, messages } from '@pathway/contract';
import { auditEvents, participants } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  addParticipant,
  freshNhsNumber,
  insertDevice,
  insertParticipants,
  participantBody,
} from '../../../test/factories.js';
import { uniqueConflict } from './service.js';

/** Safe registration (issue 32): the NHS number, its uniqueness, and possible duplicates. */

let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

async function post(overrides: Record<string, unknown>, cookie = full) {
  const device = await insertDevice(t.ctx);
  return t.app.inject({
    method: 'POST',
    url: '/api/participant',
    headers: { cookie },
    payload: participantBody(device.uuid, overrides),
  });
}

function patch(id: number, payload: Record<string, unknown>, cookie = full) {
  return t.app.inject({ method: 'PATCH', url: `/api/participant/${id}`, headers: { cookie }, payload });
}

async function count(): Promise<number> {
  const [row] = await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(participants);
  return row!.n;
}

async function storedNhsNumber(id: number): Promise<string | null> {
  const [row] = await t.ctx.database.db
    .select({ nhs: participants.nhs_number })
    .from(participants)
    .where(eq(participants.participant_id, id));
  return row!.nhs;
}

describe('the NHS number on add and edit', () => {
  it('is stored as 10 digits whether typed with spaces (3-3-4) or without, and answered to full access', async () => {
    const spaced = await post({ nhs_number: '943 476 5919' });
    expect(spaced.statusCode).toBe(201);
    expect(spaced.json().nhs_number).toBe('9434765919');
    expect(await storedNhsNumber(spaced.json().participant_id)).toBe('9434765919');

    const plain = await post({ nhs_number: '4010232137' });
    expect(plain.statusCode).toBe(201);
    expect(await storedNhsNumber(plain.json().participant_id)).toBe('4010232137');

    const read = await t.app.inject({
      url: `/api/participant/${plain.json().participant_id}`,
      headers: { cookie: full },
    });
    expect(read.json().nhs_number).toBe('4010232137');
  });

  it('is optional: left out or blank, none is stored', async () => {
    const none = await post({ nhs_number: '' });
    expect(none.statusCode).toBe(201);
    expect(none.json().nhs_number).toBeNull();
    const absent = await post({});
    expect(absent.json().nhs_number).toBeNull();
  });

  it.each([
    ['9434765918', messages.nhsNumber.checkDigit], // check digit mistyped
    ['4857773456', messages.nhsNumber.checkDigit], // the NHS display example fails modulus 11
    ['1234567890', messages.nhsNumber.checkDigit], // the first nine give a check of 10
    ['943476591', messages.nhsNumber.format],
    ['943-476-5919', messages.nhsNumber.format],
    ['NHS9434765919', messages.nhsNumber.format],
  ])('refuses %s with a clear message and adds nobody', async (value, message) => {
    const before = await count();
    const res = await post({ nhs_number: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await count()).toBe(before);
  });

  it('is unique among all participants: a second registration is a 409 naming the holder, and nothing is added', async () => {
    const nhs = freshNhsNumber();
    const first = await post({ nhs_number: nhs });
    const holder = first.json().participant_id as number;
    const before = await count();
    const spaced = `${nhs.slice(0, 3)} ${nhs.slice(3, 6)} ${nhs.slice(6)}`;
    const second = await post({ nhs_number: spaced });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(`This NHS number is already registered to participant ${holder}`);
    expect(await count()).toBe(before);

    // A discharged participant keeps their number (the row is what counts, not the status).
    await t.ctx.database.db
      .update(participants)
      .set({ status: 'withdrawn', discharged_on: '2026-01-01', discharge_reason: 'moved_away' })
      .where(eq(participants.participant_id, holder));
    const again = await post({ nhs_number: nhs });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.nhsNumber.taken(holder));
  });

  it("on edit: may be set, changed, kept or cleared, but never to another participant's number", async () => {
    const { participant } = await addParticipant(t, full);
    const id = participant.participant_id;
    const mine = freshNhsNumber();
    expect((await patch(id, { nhs_number: mine })).json().nhs_number).toBe(mine);
    // Sending one's own number again is no conflict.
    expect((await patch(id, { nhs_number: mine })).statusCode).toBe(200);

    const other = (await post({ nhs_number: freshNhsNumber() })).json();
    const refused = await patch(id, { nhs_number: other.nhs_number });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(messages.nhsNumber.taken(other.participant_id));
    expect(await storedNhsNumber(id)).toBe(mine);

    const wrong = await patch(id, { nhs_number: '9434765918' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(messages.nhsNumber.checkDigit);

    expect((await patch(id, { nhs_number: null })).json().nhs_number).toBeNull();
    expect(await storedNhsNumber(id)).toBeNull();
  });

  it('a unique violation from the index (two admins at the same instant) becomes the same 409, never a 5xx', async () => {
    const nhs = freshNhsNumber();
    const [holder] = await insertParticipants(t.ctx, [{ nhs_number: nhs }]);
    // The write the check before it let through: the database's own error, on this driver.
    const violation = await insertParticipants(t.ctx, [{ nhs_number: nhs }]).then(
      () => null,
      (error: unknown) => error,
    );
    expect(violation).not.toBeNull();
    const answer = await uniqueConflict(t.ctx.database.db, violation);
    expect(answer).toMatchObject({ statusCode: 409, message: messages.nhsNumber.taken(holder!) });

    // And through the API, many at once: one is added, every other is told who holds it.
    const contested = freshNhsNumber();
    const racers = await Promise.all(Array.from({ length: 4 }, () => post({ nhs_number: contested })));
    const statuses = racers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const winner = racers.find((r) => r.statusCode === 201)!.json().participant_id as number;
    for (const r of racers.filter((x) => x.statusCode === 409)) {
      expect(r.json().message).toBe(messages.nhsNumber.taken(winner));
    }
  });

  it('is identifiable: basic access neither receives nor changes it', async () => {
    const nhs = freshNhsNumber();
    const { participant } = await addParticipant(t, full, { nhs_number: nhs });
    const id = participant.participant_id;
    const read = await t.app.inject({ url: `/api/participant/${id}`, headers: { cookie: basic } });
    expect(read.statusCode).toBe(200);
    expect(read.json()).not.toHaveProperty('nhs_number');
    const page = await t.app.inject({ url: '/api/participant?perPage=100', headers: { cookie: basic } });
    expect(page.body).not.toContain(nhs);
    const change = await patch(id, { nhs_number: freshNhsNumber() }, basic);
    expect(change.statusCode).toBe(403);
    expect(await storedNhsNumber(id)).toBe(nhs);
  });

  it('is in the full-access export and never in the basic one', async () => {
    const nhs = freshNhsNumber();
    await addParticipant(t, full, { nhs_number: nhs });
    const fullCsv = await t.app.inject({ url: '/api/participant/export', headers: { cookie: full } });
    expect(fullCsv.body.split('\r\n')[0]).toContain('nhs_number');
    expect(fullCsv.body).toContain(nhs);
    const basicCsv = await t.app.inject({ url: '/api/participant/export', headers: { cookie: basic } });
    expect(basicCsv.body.split('\r\n')[0]).not.toContain('nhs_number');
    expect(basicCsv.body).not.toContain(nhs);
  });

  it('records the change in the audit trail by name, never the number', async () => {
    const { participant } = await addParticipant(t, full);
    const nhs = freshNhsNumber();
    await patch(participant.participant_id, { nhs_number: nhs });
    const events = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.participant_id, participant.participant_id));
    expect(events.map((e) => e.detail)).toContain('nhs_number');
    expect(JSON.stringify(events)).not.toContain(nhs);
  });
});

describe('possible duplicates', () => {
  it('answers the add with the participants of the same names and date of birth, ignoring case and spaces; never blocks', async () => {
    const first = await post({ first_name: 'Mary Ann', last_name: 'Evans', date_of_birth: '1949-11-22' });
    expect(first.statusCode).toBe(201);
    expect(first.json().possible_duplicates).toEqual([]);
    const second = await post({ first_name: 'maryann', last_name: ' EVANS ', date_of_birth: '1949-11-22' });
    expect(second.statusCode).toBe(201);
    expect(second.json().possible_duplicates).toEqual([first.json().participant_id]);
    const third = await post({ first_name: 'MARY  ANN', last_name: 'Evans', date_of_birth: '1949-11-22' });
    expect(third.json().possible_duplicates).toEqual([
      first.json().participant_id,
      second.json().participant_id,
    ]);
  });

  it('is no match when the date of birth or a name differs', async () => {
    await post({ first_name: 'George', last_name: 'Eliot', date_of_birth: '1950-01-01' });
    expect(
      (await post({ first_name: 'George', last_name: 'Eliot', date_of_birth: '1950-01-02' })).json()
        .possible_duplicates,
    ).toEqual([]);
    expect(
      (await post({ first_name: 'Georgina', last_name: 'Eliot', date_of_birth: '1950-01-01' })).json()
        .possible_duplicates,
    ).toEqual([]);
    expect(
      (await post({ first_name: 'George', last_name: 'Elliot', date_of_birth: '1950-01-01' })).json()
        .possible_duplicates,
    ).toEqual([]);
  });

  it('answers an edit that changes a name or the date of birth, leaving the participant out of their own matches', async () => {
    const a = (
      await post({ first_name: 'Charlotte', last_name: 'Bronte', date_of_birth: '1951-04-21' })
    ).json();
    const b = (await post({ first_name: 'Emily', last_name: 'Bronte', date_of_birth: '1951-04-21' })).json();
    expect(b.possible_duplicates).toEqual([]);
    const edited = await patch(b.participant_id, { first_name: 'charlotte' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().possible_duplicates).toEqual([a.participant_id]);
    // A change of something else is not a new identity: no look-up, no matches said.
    expect(
      (await patch(b.participant_id, { address: '3 Parsonage Lane, Haworth' })).json().possible_duplicates,
    ).toEqual([]);
    expect(
      (await patch(a.participant_id, { date_of_birth: '1951-04-21' })).json().possible_duplicates,
    ).toEqual([b.participant_id]);
  });

  it('is looked up with the expressions of the identity index (a probe, not a scan, at 100k participants)', async () => {
    // Sequential scans priced out: the plan names the index only if the query's expressions are the index's.
    const plan = await t.ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`
        explain select participant_id from participants p
        where p.date_of_birth = '1951-04-21'::date
          and lower(regexp_replace(p.last_name, '[[:space:]]', '', 'g')) = 'bronte'
          and lower(regexp_replace(p.first_name, '[[:space:]]', '', 'g')) = 'emily'`);
    });
    expect(JSON.stringify(plan)).toContain('participants_identity_idx');
  });
});

describe('the test numbers', () => {
  it('are valid NHS numbers', () => {
    for (let i = 0; i < 50; i++) expect(isValidNhsNumber(freshNhsNumber())).toBe(true);
  });
});
