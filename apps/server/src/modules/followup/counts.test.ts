import { FOLLOWUP_NOT_STARTED_DAYS, FOLLOWUP_REASONS, type FollowupEntry } from '@pathway/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participantFollowup, participants, sites } from '../../db/schema.js';
import { SESSION_COOKIE } from '../../lib/staff-session.js';
import { programmeToday } from '../../lib/programme-day.js';
import { firstSite, setDaysMissed } from '../../../test/factories.js';
import {
  ManualClock,
  createAdmin,
  createTestApp,
  signedInCookie,
  type TestApp,
} from '../../../test/harness.js';
import { makeEnrolledParticipant, makeParticipant } from '../../../test/programme-factories.js';
import { foldFollowupTally } from './worklist.js';

/**
 * The counts of the two reasons a threshold brings (a silent tablet, not started) come from
 * followup_tally by the UTC day of each row's time, plus the rows of the threshold's own day up to
 * it (drizzle 0034, followup/worklist.ts). A count off by a day's rows would show staff fewer
 * silent tablets than the list holds (docs/clinical-safety/hazard-log.md, HAZ-01): here the
 * counts must equal the rows the worklist lists at every instant around the days' edges, with the
 * tally's rows as the triggers wrote them and after the daily job folded them.
 */
const DAY = 86_400_000;
const clock = new ManualClock(new Date());
let t: TestApp;
/** Full access to every site, and full access to the first site only. */
let adminId: number;
let firstSiteAdminId: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  adminId = (await signedInCookie(t.ctx, 'full access')).admin.admin_user_id;
  const firstSiteId = (await firstSite(t.ctx.database.db)).site_id;
  firstSiteAdminId = (
    await createAdmin(t.ctx, 'full access', { site_ids: [firstSiteId], system_administrator: false })
  ).admin_user_id;
});
afterAll(async () => {
  await t.close();
});

/** A session started at the test clock's instant, which moves back and forth by days. */
async function getJson<T>(url: string, admin = adminId): Promise<T> {
  const { token } = await t.ctx.sessions.start(admin, 'full access', '127.0.0.1');
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  expect(res.statusCode, url).toBe(200);
  return res.json<T>();
}

/**
 * The counts, and what the list itself holds (its rows come from each reason's index walk), as
 * `admin` sees them.
 */
async function countsAndList(admin = adminId) {
  const counts = await getJson<{ total: number; reasons: Record<string, number> }>(
    '/api/followup/counts',
    admin,
  );
  const list = await getJson<{ data: FollowupEntry[]; pagination: { total: number } }>(
    '/api/followup?perPage=500',
    admin,
  );
  const filtered: Record<string, number> = {};
  for (const reason of ['tablet_silent', 'not_started'])
    filtered[reason] = (
      await getJson<{ pagination: { total: number } }>(`/api/followup?reason=${reason}&perPage=1`, admin)
    ).pagination.total;
  return { counts, list, filtered };
}

function expectAgree({ counts, list, filtered }: Awaited<ReturnType<typeof countsAndList>>, at: string) {
  expect(list.data.length, at).toBeLessThan(500);
  expect(counts.total, at).toBe(list.data.length);
  expect(list.pagination.total, at).toBe(list.data.length);
  for (const reason of FOLLOWUP_REASONS)
    expect(counts.reasons[reason], `${reason} ${at}`).toBe(
      list.data.filter((r) => r.reasons.includes(reason)).length,
    );
  for (const [reason, total] of Object.entries(filtered))
    expect(total, `?reason=${reason} ${at}`).toBe(counts.reasons[reason]);
}

describe('the follow-up counts of a silent tablet and of not started', () => {
  it('equal the listed rows at every instant around the days their times fall on, folded or not', async () => {
    const silentDays = t.ctx.config.followupSilentDays;
    // A UTC midnight well in the past: the rows' times are set around it.
    const midnight = Math.floor((Date.now() - 20 * DAY) / DAY) * DAY;
    const offsets = [-DAY, -1, 0, 1, 6 * 3_600_000, DAY - 1, DAY, DAY + 1, 2 * DAY + 12 * 3_600_000];

    clock.set(new Date());
    const today = programmeToday(t.ctx);
    const withTablets: number[] = [];
    for (let i = 0; i < offsets.length; i++)
      withTablets.push(
        (await makeEnrolledParticipant(t.ctx.database.db, { weeks: 2, perWeek: 3, started_date: today }))
          .participant.participant_id,
      );
    // With push tokens: no reason of their own but the clock's.
    await t.ctx.database.db
      .update(participants)
      .set({ push_notification_id: sql`'tok-' || ${participants.participant_id} || '-abcdef'` })
      .where(inArray(participants.participant_id, withTablets));
    const withoutTablets: number[] = [];
    for (let i = 0; i < offsets.length; i++)
      withoutTablets.push((await makeParticipant(t.ctx.database.db)).participant_id);
    // Two of the tablets' participants behind too: they count as silent, but not among those with no
    // kept reason.
    await setDaysMissed(t.ctx.database.db, [withTablets[1]!, withTablets[4]!], 3, today);

    const atOffsets = (ids: number[]) =>
      sql`(values ${sql.join(
        ids.map((id, i) => sql`(${id}::int, ${offsets[i]!}::bigint)`),
        sql`, `,
      )})`;
    // Each tablet's last call, and each registration, at its offset from the midnight: one
    // statement each (the triggers' update path), the tablets' assignments before them.
    await t.ctx.database.db.execute(sql`
      update participant_followup f set device_assigned_at = to_timestamp(${(midnight - 10 * DAY) / 1000}),
        tablet_called_at = to_timestamp((${midnight} + o.offset_ms) / 1000.0)
      from ${atOffsets(withTablets)} as o(id, offset_ms)
      where f.participant_id = o.id`);
    await t.ctx.database.db.execute(sql`
      update participant_followup f set registered_at = to_timestamp((${midnight} + o.offset_ms) / 1000.0)
      from ${atOffsets(withoutTablets)} as o(id, offset_ms)
      where f.participant_id = o.id`);
    const rows = await t.ctx.database.db
      .select({ silent: participantFollowup.silent_from, notStarted: participantFollowup.not_started_from })
      .from(participantFollowup)
      .where(inArray(participantFollowup.participant_id, [...withTablets, ...withoutTablets]));
    expect(
      rows
        .filter((r) => r.silent)
        .map((r) => r.silent!.getTime() - midnight)
        .sort((a, b) => a - b),
    ).toEqual([...offsets].sort((a, b) => a - b));
    expect(rows.filter((r) => r.notStarted).length).toBe(offsets.length);

    // The instants at which each threshold (now less the silent days, or the days to start) falls
    // on a row's time, a millisecond either side, and each UTC midnight between.
    const edges = new Set<number>();
    for (const offset of [...offsets, 2 * DAY, 3 * DAY])
      for (const delta of [-1, 0, 1]) edges.add(midnight + offset + delta);
    const checked = async (when: string, admins = [adminId]) => {
      for (const edge of edges) {
        for (const days of [silentDays, FOLLOWUP_NOT_STARTED_DAYS]) {
          clock.set(new Date(edge + days * DAY));
          for (const admin of admins)
            expectAgree(
              await countsAndList(admin),
              `${when}, admin ${admin}, threshold ${new Date(edge).toISOString()}`,
            );
        }
      }
    };
    await checked('as written');
    const silentAt = (at: number) => {
      clock.set(new Date(at + silentDays * DAY));
      return countsAndList();
    };
    const before = (await silentAt(midnight + DAY)).counts.reasons.tablet_silent!;

    // A tablet's call moves it to another day, and a row deleted leaves the counts.
    await t.ctx.database.db
      .update(participantFollowup)
      .set({ tablet_called_at: new Date(midnight + 2 * DAY + 1) })
      .where(eq(participantFollowup.participant_id, withTablets[0]!));
    await t.ctx.database.db
      .delete(participantFollowup)
      .where(eq(participantFollowup.participant_id, withTablets[3]!));
    expect((await silentAt(midnight + DAY)).counts.reasons.tablet_silent).toBe(before - 2);
    await checked('after a call and a delete');

    // Two of each moved to a second site: each site's counts are its own rows'.
    const [second] = await t.ctx.database.db
      .insert(sites)
      .values({ organisation_id: (await firstSite(t.ctx.database.db)).organisation_id, name: 'Second' })
      .returning();
    const moved = [withTablets[2]!, withTablets[5]!, withoutTablets[2]!, withoutTablets[6]!];
    await t.ctx.database.db
      .update(participants)
      .set({ site_id: second!.site_id })
      .where(inArray(participants.participant_id, moved));
    clock.set(new Date(midnight + DAY + silentDays * DAY));
    const everySite = await countsAndList(adminId);
    const firstSiteOnly = await countsAndList(firstSiteAdminId);
    const movedListed = everySite.list.data.filter((r) => moved.includes(r.participant_id));
    expect(movedListed.length).toBeGreaterThan(0);
    expect(firstSiteOnly.list.data.some((r) => moved.includes(r.participant_id))).toBe(false);
    expect(everySite.counts.total - firstSiteOnly.counts.total).toBe(movedListed.length);
    await checked('after a move to another site', [adminId, firstSiteAdminId]);

    await foldFollowupTally(t.ctx.database.db);
    await checked('folded', [adminId, firstSiteAdminId]);
  });
});
