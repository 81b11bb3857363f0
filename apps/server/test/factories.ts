import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { addDays } from '@pathway/contract';
import type { AppContext } from '../src/context.js';
import type { Database } from '../src/db/client.js';
import {
  authorizedDevices,
  deviceTokens,
  participantAdherence,
  participantFollowup,
  participants,
  sites,
} from '../src/db/schema.js';
import { hashDeviceToken } from '../src/plugins/access.js';
import { testLogRoot, type TestApp } from './harness.js';
import { recordSecret } from './security/log-leaks.js';

let counter = 0;

/** A fresh Android-style id: 16 lower-case hex characters. */
export function newUuid(): string {
  return randomBytes(8).toString('hex');
}

/**
 * The site a test's rows go to unless it names one: the instance's first site, which every new
 * database has (the migration that made organisations made it), and its organisation.
 */
export async function firstSite(db: Database): Promise<{ site_id: number; organisation_id: number }> {
  const [site] = await db
    .select({ site_id: sites.site_id, organisation_id: sites.organisation_id })
    .from(sites)
    .orderBy(sites.site_id)
    .limit(1);
  return site!;
}

/** A device added directly in the database (tests of the device API add theirs through it). */
export async function insertDevice(
  ctx: AppContext,
  overrides: { name?: string; uuid?: string; organisation_id?: number } = {},
) {
  counter += 1;
  const [row] = await ctx.database.db
    .insert(authorizedDevices)
    .values({
      name: overrides.name ?? `Tablet ${counter}`,
      uuid: overrides.uuid ?? newUuid(),
      organisation_id: overrides.organisation_id ?? (await firstSite(ctx.database.db)).organisation_id,
    })
    .returning();
  return row!;
}

/** Every field the add form sends, valid; each test changes what it is about. */
export function participantBody(
  uuid: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  counter += 1;
  return {
    first_name: 'Ada',
    last_name: `Lovelace${counter}`,
    gender: 'female',
    date_of_birth: '1960-05-17',
    email: `ada${counter}@example.org`,
    phone_number: '+447700900123',
    phone_number_secondary: '',
    address: '1 Test Street, Leeds',
    language: 'English',
    unique_device_id: uuid,
    notes: '',
    programme_referred_to: 'pad-programme',
    referring_organisation: 'Leeds Community Practice',
    referring_healthcare_professional: 'Dr Grace Hopper',
    referring_healthcare_professional_role: 'GP',
    checked_contraindications_to_exercise: true,
    smoker: false,
    diabetes: true,
    registered_deaf: false,
    ...overrides,
  };
}

/** A participant with a new device, added through the API as a full-access admin. */
export async function addParticipant(
  t: TestApp,
  fullCookie: string,
  overrides: Record<string, unknown> = {},
) {
  const device = await insertDevice(t.ctx);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/participant',
    headers: { cookie: fullCookie },
    payload: participantBody(device.uuid, overrides),
  });
  if (res.statusCode !== 201) throw new Error(`addParticipant: ${res.statusCode} ${res.body}`);
  // The participant as a read answers it: the add's possible duplicates are no field of theirs.
  const { possible_duplicates: _duplicates, ...participant } = res.json<
    { participant_id: number; possible_duplicates?: number[] } & Record<string, unknown>
  >();
  return { participant, device };
}

/** Many participants at once, straight into the table (for paging, sorting and filtering). */
export async function insertParticipants(
  ctx: AppContext,
  rows: Array<Partial<typeof participants.$inferInsert> & { days_behind?: number }>,
): Promise<number[]> {
  const site = await firstSite(ctx.database.db);
  const inserted = await ctx.database.db
    .insert(participants)
    .values(
      rows.map(({ days_behind: _daysBehind, ...r }, i) => ({
        first_name: `First${i}`,
        last_name: `Last${i}`,
        date_of_birth: '1970-01-01',
        phone_number: '+447700900000',
        address: 'Somewhere',
        ...site,
        ...r,
      })),
    )
    .returning({ participant_id: participants.participant_id });
  const ids = inserted.map((r) => r.participant_id);
  // Each participant's days_behind lives in participant_adherence (0 when inserted).
  const behind = rows.flatMap((r, i) =>
    r.days_behind ? [sql`(${ids[i]}::int, ${r.days_behind}::int)`] : [],
  );
  if (behind.length > 0) {
    await ctx.database.db.execute(sql`
      update participant_adherence a set days_behind = v.days_behind
      from (values ${sql.join(behind, sql`, `)}) as v(participant_id, days_behind)
      where a.participant_id = v.participant_id`);
  }
  return ids;
}

/** Sets how many days behind participants are, as the daily check or a tablet's view would. */
export async function setDaysBehind(db: Database, ids: number | number[], daysBehind: number) {
  await db
    .update(participantAdherence)
    .set({ days_behind: daysBehind })
    .where(inArray(participantAdherence.participant_id, Array.isArray(ids) ? ids : [ids]));
}

/**
 * Sets how many days went by without their video (the follow-up worklist's behind and slightly
 * behind), as the daily check on `today` would for a participant of a video a day who watched
 * nothing for that many days: the missed days reached 1 and 3 on the days they then would have.
 */
export async function setDaysMissed(db: Database, ids: number | number[], missed: number, today: string) {
  await db
    .update(participantFollowup)
    .set({
      first_missed_on: missed >= 1 ? addDays(today, 1 - missed) : null,
      third_missed_on: missed >= 3 ? addDays(today, 3 - missed) : null,
    })
    .where(inArray(participantFollowup.participant_id, Array.isArray(ids) ? ids : [ids]));
}

/** A participant's days_behind as stored. */
export async function daysBehindOf(db: Database, id: number): Promise<number> {
  const [row] = await db
    .select({ days_behind: participantAdherence.days_behind })
    .from(participantAdherence)
    .where(eq(participantAdherence.participant_id, id));
  if (!row) throw new Error(`participant ${id} has no participant_adherence row`);
  return row.days_behind;
}

/** A bearer token for a device paired with a participant, as the device sign-in would issue. */
export async function issueDeviceToken(
  ctx: AppContext,
  deviceId: number,
  participantId: number,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  recordSecret(testLogRoot(), token);
  await ctx.database.db.insert(deviceTokens).values({
    token_hash: hashDeviceToken(token),
    authorized_device_id: deviceId,
    participant_id: participantId,
  });
  return token;
}

let nhsCounter = 0;

/** A fresh valid NHS number (modulus 11), different at each call within a test file. */
export function freshNhsNumber(): string {
  for (;;) {
    nhsCounter += 1;
    const nine = String(400000000 + nhsCounter * 7919 + Math.floor(Math.random() * 1000) * 1000003).slice(-9);
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += Number(nine[i]) * (10 - i);
    const check = 11 - (sum % 11);
    if (check !== 10) return `${nine}${check === 11 ? 0 : check}`;
  }
}
