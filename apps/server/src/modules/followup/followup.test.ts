import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import { SESSION_COOKIE } from '../../lib/staff-session.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLLOWUP_REASONS, addDays, calendarDate, messages, type FollowupEntry } from '@pathway/contract';
import {
  auditEvents,
  participantContacts,
  participantFollowup,
  participants,
  pushOutbox,
  seenVideos,
} from '../../db/schema.js';
import { PushDelivery } from '../push/delivery.js';
import { FcmProvider, readServiceAccount } from '../push/fcm.js';
import { runAdherenceCheck } from '../adherence/check.js';
import { foldFollowupTally } from './worklist.js';
import { programmeToday } from '../../lib/programme-day.js';
import { FakeFcm } from '../../../test/fake-fcm.js';
import { issueDeviceToken, setDaysBehind, setDaysMissed } from '../../../test/factories.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  makeDevice,
  makeEnrolledParticipant,
  makeParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
} from '../../../test/programme-factories.js';

const DAY = 86_400_000;
// The worklist's facts that triggers stamp (registration, device assignment) use the database's
// clock, so the test's clock starts at the real time and moves from there.
const clock = new ManualClock(new Date());
let t: TestApp;
let fake: FakeFcm;
let dir: string;
let delivery: PushDelivery;
let admins: Record<'full' | 'basic', number>;
/** A session started now (the test's clock moves days, past any session's lifetime). */
async function session(role: 'full' | 'basic'): Promise<string> {
  const { token } = await t.ctx.sessions.start(
    admins[role],
    role === 'full' ? 'full access' : 'basic access',
    '127.0.0.1',
  );
  return `${SESSION_COOKIE}=${token}`;
}
const full = 'full' as const;
const basic = 'basic' as const;

beforeAll(async () => {
  fake = await new FakeFcm().start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-followup-'));
  t = await createTestApp({ clock });
  delivery = new PushDelivery(
    t.ctx,
    new FcmProvider({
      projectId: fake.projectId,
      serviceAccount: readServiceAccount(fake.writeServiceAccount(dir)),
      apiUrl: fake.url,
    }),
  );
  admins = {
    full: (await signedInCookie(t.ctx, 'full access')).admin.admin_user_id,
    basic: (await signedInCookie(t.ctx, 'basic access')).admin.admin_user_id,
  };
});
afterAll(async () => {
  await t.close();
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function worklist(query = '', cookie: 'full' | 'basic' = full) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/followup${query}`,
    headers: { cookie: await session(cookie) },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: FollowupEntry[]; pagination: { total: number; nextCursor: string | null } }>();
}

/** The participant's worklist row (reasons filter `reason`), or undefined when not listed. */
async function rowOf(id: number, reason?: string) {
  const page = await worklist(`?perPage=500${reason ? `&reason=${reason}` : ''}`);
  return page.data.find((r) => r.participant_id === id);
}

async function facts(id: number) {
  const [row] = await t.ctx.database.db
    .select()
    .from(participantFollowup)
    .where(eq(participantFollowup.participant_id, id));
  return row!;
}

/** A participant with a device, a programme and a registered push token (no reason of its own). */
async function healthyParticipant(token = `tok-${Math.random().toString(36).slice(2)}-abcdef`) {
  clock.set(new Date());
  const made = await makeEnrolledParticipant(t.ctx.database.db, {
    weeks: 2,
    perWeek: 3,
    started_date: programmeToday(t.ctx),
  });
  await t.ctx.database.db
    .update(participants)
    .set({ push_notification_id: token })
    .where(eq(participants.participant_id, made.participant.participant_id));
  return { ...made, token };
}

async function tabletCall(made: Awaited<ReturnType<typeof healthyParticipant>>, bearer: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/summary/${made.set.fitness_video_set_id}/participant/${made.participant.participant_id}`,
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(res.statusCode).toBe(200);
}

async function contact(id: number, body: Record<string, unknown>, cookie: 'full' | 'basic' = full) {
  return t.app.inject({
    method: 'POST',
    url: `/api/participant/${id}/contacts`,
    headers: { cookie: await session(cookie) },
    payload: body,
  });
}

describe('follow-up reasons, each at its boundary', () => {
  it('not_started: registered 1 day ago without a device is not listed, 2 days ago it is', async () => {
    clock.set(new Date());
    const p = await makeParticipant(t.ctx.database.db);
    const { registered_at } = await facts(p.participant_id);
    clock.set(new Date(registered_at.getTime() + DAY));
    expect(await rowOf(p.participant_id)).toBeUndefined();
    clock.set(new Date(registered_at.getTime() + 2 * DAY));
    const row = await rowOf(p.participant_id, 'not_started');
    expect(row?.reasons).toEqual(['not_started']);
    expect(row?.since).toBe(new Date(registered_at.getTime() + 2 * DAY).toISOString().slice(0, 10));
  });

  it('tablet_silent: 2 days without a call with its token is not silent, 3 days is; a call ends it', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    const { device_assigned_at } = await facts(id);
    expect(device_assigned_at).not.toBeNull();
    // Never called: counted from the day the device was assigned.
    clock.set(new Date(device_assigned_at!.getTime() + 2 * DAY));
    expect(await rowOf(id)).toBeUndefined();
    clock.set(new Date(device_assigned_at!.getTime() + 3 * DAY));
    expect((await rowOf(id))?.reasons).toEqual(['tablet_silent']);

    const bearer = await issueDeviceToken(t.ctx, made.device.authorized_device_id, id);
    await tabletCall(made, bearer);
    expect(await rowOf(id)).toBeUndefined();
    const calledAt = clock.now().getTime();
    clock.set(new Date(calledAt + 3 * DAY - 60_000));
    expect(await rowOf(id)).toBeUndefined();
    clock.set(new Date(calledAt + 3 * DAY));
    expect((await rowOf(id, 'tablet_silent'))?.reasons).toEqual(['tablet_silent']);
  });

  it('reminders_failing: 1 failed message is not failing, 2 in a row are, since the first; one delivered clears it', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    const queue = async () => {
      await t.ctx.database.db.insert(pushOutbox).values({
        participant_id: id,
        title: 'Time to exercise',
        body: 'Your video is waiting.',
        kind: 'manual',
        created_at: clock.now(),
      });
      await delivery.deliverDue();
    };
    fake.script(made.token, { kind: 'invalid-token' }, { kind: 'invalid-token' });
    await queue();
    expect(await rowOf(id)).toBeUndefined();
    const firstFailure = programmeToday(t.ctx);
    clock.set(new Date(clock.now().getTime() + DAY));
    await queue();
    expect(await rowOf(id, 'reminders_failing')).toMatchObject({
      reasons: ['reminders_failing'],
      since: firstFailure,
      since_exact: true,
    });
    await queue();
    expect(await rowOf(id)).toBeUndefined();

    // Firebase answers that the token is no longer registered: failing at once (the token is cleared).
    fake.unregister(made.token);
    await queue();
    expect((await rowOf(id))?.reasons).toEqual(['reminders_failing']);
    expect((await facts(id)).token_empty).toBe(true);
  });

  it('a tablet that calls without ever registering a push token (the literal "empty") is failing from that call', async () => {
    const made = await healthyParticipant('empty');
    const id = made.participant.participant_id;
    // Not switched on yet: nothing is failing (if it stays off, it is "tablet silent" in 3 days).
    expect(await rowOf(id)).toBeUndefined();
    clock.set(new Date(clock.now().getTime() + DAY));
    const calledOn = programmeToday(t.ctx);
    await tabletCall(made, await issueDeviceToken(t.ctx, made.device.authorized_device_id, id));
    clock.set(new Date(clock.now().getTime() + DAY));
    expect(await rowOf(id)).toMatchObject({
      reasons: ['reminders_failing'],
      since: calledOn,
      since_exact: true,
    });
  });

  it('a reason whose start no fact records (as on an upgraded instance) is "at least since" it was first seen', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    // Two failures counted before failing_began_at was kept: the run's first failure is unknown.
    await t.ctx.database.db
      .update(participantFollowup)
      .set({ push_failures: 2 })
      .where(eq(participantFollowup.participant_id, id));
    const seenOn = (await facts(id)).failing_since!;
    expect(await rowOf(id)).toMatchObject({
      reasons: ['reminders_failing'],
      since: calendarDate(seenOn, t.ctx.config.adherenceCheck.timeZone),
      since_exact: false,
    });
    // The oldest reason decides: behind, whose start is a fact (5 missed: the third went by 2 days ago).
    await setDaysMissed(t.ctx.database.db, id, 5, programmeToday(t.ctx));
    expect(await rowOf(id)).toMatchObject({
      reasons: ['behind', 'reminders_failing'],
      since: addDays(programmeToday(t.ctx), -2),
      since_exact: true,
    });
  });

  it('slightly_behind at 1-2 days missed, behind at 3 (most urgent first), none at 0', async () => {
    const a = await healthyParticipant();
    const b = await healthyParticipant();
    const today = programmeToday(t.ctx);
    await setDaysMissed(t.ctx.database.db, a.participant.participant_id, 2, today);
    await setDaysMissed(t.ctx.database.db, b.participant.participant_id, 3, today);
    expect(await rowOf(a.participant.participant_id)).toMatchObject({
      reasons: ['slightly_behind'],
      since: addDays(today, -1),
    });
    expect(await rowOf(b.participant.participant_id)).toMatchObject({ reasons: ['behind'], since: today });
    const page = await worklist('?perPage=500');
    const order = page.data.map((r) => r.participant_id);
    expect(order.indexOf(b.participant.participant_id)).toBeLessThan(
      order.indexOf(a.participant.participant_id),
    );
    await setDaysMissed(t.ctx.database.db, a.participant.participant_id, 0, today);
    expect(await rowOf(a.participant.participant_id)).toBeUndefined();
    // The grid's days behind (today's video counted from midnight) lists no one by itself.
    await setDaysBehind(t.ctx.database.db, a.participant.participant_id, 2);
    expect(await rowOf(a.participant.participant_id)).toBeUndefined();
  });

  it('programme_finished: the daily check marks who watched the last day; only active participants are listed', async () => {
    clock.set(new Date());
    const set = await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 1 });
    const [video] = await makeVideos(t.ctx.database.db, set);
    const device = await makeDevice(t.ctx.database.db);
    const p = await makeParticipant(t.ctx.database.db, { deviceId: device.authorized_device_id });
    await t.ctx.database.db
      .update(participants)
      .set({ push_notification_id: 'tok-finished-123456' })
      .where(eq(participants.participant_id, p.participant_id));
    const today = programmeToday(t.ctx);
    await makeProgress(t.ctx.database.db, p.participant_id, set.fitness_video_set_id, {
      started_date: today,
    });
    // Watched yesterday evening: finished since then, not since the check that saw it.
    const watchedAt = new Date(clock.now().getTime() - DAY);
    await t.ctx.database.db.insert(seenVideos).values({
      participant_id: p.participant_id,
      video_id: video!.video_id,
      fitness_video_set_id: set.fitness_video_set_id,
      week_number: 1,
      day_number: 1,
      created_at: watchedAt,
    });
    await t.ctx.database.db.execute(`delete from adherence_runs where run_date = '${today}'`);
    await runAdherenceCheck(t.ctx, { today });
    expect(await rowOf(p.participant_id, 'programme_finished')).toMatchObject({
      reasons: ['programme_finished'],
      since: calendarDate(watchedAt, t.ctx.config.adherenceCheck.timeZone),
      since_exact: true,
    });

    // A discharged participant (the life-cycle's status) leaves the worklist.
    await t.ctx.database.db
      .update(participants)
      .set({ status: 'completed', discharged_on: today })
      .where(eq(participants.participant_id, p.participant_id));
    expect(await rowOf(p.participant_id)).toBeUndefined();
  });
});

describe('the snooze rule', () => {
  it('a next follow-up date takes the participant off the list until that day', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    await setDaysMissed(t.ctx.database.db, id, 1, programmeToday(t.ctx));
    expect(await rowOf(id)).toBeDefined();
    const today = programmeToday(t.ctx);
    const tomorrow = new Date(`${today}T12:00:00Z`).getTime() + DAY;
    const res = await contact(id, {
      method: 'phone',
      outcome: 'no_answer',
      next_followup_on: new Date(tomorrow).toISOString().slice(0, 10),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ reasons: ['slightly_behind'], outcome: 'no_answer' });
    expect(await rowOf(id)).toBeUndefined();
    clock.set(new Date(tomorrow));
    const back = await rowOf(id);
    expect(back).toMatchObject({
      reasons: ['slightly_behind'],
      last_contact_method: 'phone',
      last_contact_outcome: 'no_answer',
    });
  });

  it('a reason that was not there when the contact was recorded brings them back at once', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    await setDaysMissed(t.ctx.database.db, id, 2, programmeToday(t.ctx));
    const inAWeek = new Date(clock.now().getTime() + 7 * DAY).toISOString().slice(0, 10);
    expect(
      (await contact(id, { method: 'text', outcome: 'left_message', next_followup_on: inAWeek })).statusCode,
    ).toBe(201);
    expect(await rowOf(id)).toBeUndefined();
    await setDaysMissed(t.ctx.database.db, id, 3, programmeToday(t.ctx));
    expect((await rowOf(id))?.reasons).toEqual(['behind']);
  });
});

describe('contacts', () => {
  it('are append-only, newest first, audited in the same transaction; notes for full access only', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    expect(
      (await contact(id, { method: 'phone', outcome: 'reached', note: 'Knee sore, resting this week' }))
        .statusCode,
    ).toBe(201);
    expect((await contact(id, { method: 'letter', outcome: 'declined' }, basic)).statusCode).toBe(201);
    const forFull = (
      await t.app.inject({
        method: 'GET',
        url: `/api/participant/${id}/contacts`,
        headers: { cookie: await session(full) },
      })
    ).json<{ method: string; note?: string | null; has_note: boolean }[]>();
    expect(forFull.map((c) => c.method)).toEqual(['letter', 'phone']);
    expect(forFull[1]).toMatchObject({ note: 'Knee sore, resting this week', has_note: true });
    const forBasic = (
      await t.app.inject({
        method: 'GET',
        url: `/api/participant/${id}/contacts`,
        headers: { cookie: await session(basic) },
      })
    ).json<Record<string, unknown>[]>();
    expect(forBasic[1]).not.toHaveProperty('note');
    expect(forBasic[1]).toMatchObject({ has_note: true });
    expect(JSON.stringify(forBasic)).not.toContain('Knee');

    const audited = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.participant_id, id), eq(auditEvents.action, 'contact.create')));
    expect(audited).toHaveLength(2);
    expect(JSON.stringify(audited)).not.toContain('Knee');
    const read = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.participant_id, id), eq(auditEvents.action, 'contact.list')));
    expect(read).toHaveLength(1);
  });

  it('refuses bad input with the contract’s message and records nothing', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    const yesterday = new Date(clock.now().getTime() - 2 * DAY).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string][] = [
      [{ method: 'pigeon', outcome: 'reached' }, messages.followup.methodInvalid],
      [{ method: 'phone', outcome: 'maybe' }, messages.followup.outcomeInvalid],
      [{ method: 'phone', outcome: 'reached', next_followup_on: yesterday }, messages.followup.dateInPast],
      [
        { method: 'phone', outcome: 'reached', next_followup_on: '2025-02-30' },
        messages.followup.dateInvalid,
      ],
      [{ method: 'phone', outcome: 'reached', next_followup_on: 'tomorrow' }, messages.followup.dateInvalid],
      [{ method: 'phone', outcome: 'reached', note: 'x'.repeat(2001) }, messages.followup.noteTooLong],
    ];
    for (const [body, message] of cases) {
      const res = await contact(id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.json())).toContain(message);
    }
    const unknown = await contact(2147483000, { method: 'phone', outcome: 'reached' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: messages.participant.notFound });
    const rows = await t.ctx.database.db
      .select()
      .from(participantContacts)
      .where(eq(participantContacts.participant_id, id));
    expect(rows).toHaveLength(0);
    expect(
      (await contact(id, { method: 'phone', outcome: 'reached', note: 'x'.repeat(2000) })).statusCode,
    ).toBe(201);
  });
});

describe('role rules', () => {
  it('basic access sees id, device name and reasons on the worklist, never a name or phone number', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    await setDaysBehind(t.ctx.database.db, id, 4);
    await setDaysMissed(t.ctx.database.db, id, 3, programmeToday(t.ctx));
    const forBasic = await worklist('?reason=behind&perPage=500', basic);
    const row = forBasic.data.find((r) => r.participant_id === id)!;
    expect(row).toMatchObject({ reasons: ['behind'], device_name: made.device.name, days_behind: 4 });
    for (const field of ['first_name', 'last_name', 'phone_number', 'phone_number_secondary']) {
      expect(row).not.toHaveProperty(field);
    }
    expect(JSON.stringify(forBasic)).not.toContain(made.participant.first_name);
    const forFull = await worklist('?reason=behind&perPage=500', full);
    expect(forFull.data.find((r) => r.participant_id === id)).toMatchObject({
      first_name: made.participant.first_name,
      phone_number: made.participant.phone_number,
    });
    // The full-access read is recorded with the participants it returned; the basic one is not.
    const [event] = await t.ctx.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'followup.list'))
      .orderBy(desc(auditEvents.audit_event_id));
    expect(event?.participant_ids).toContain(id);
  });

  it('the participant export carries the last contact for both roles, its note for neither', async () => {
    const made = await healthyParticipant();
    const id = made.participant.participant_id;
    await contact(id, { method: 'email', outcome: 'wrong_number', note: 'Secret note text' });
    for (const cookie of [full, basic]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/participant/export?q=${id}`,
        headers: { cookie: await session(cookie) },
      });
      expect(res.statusCode).toBe(200);
      const [header, ...lines] = res.body.replace('\uFEFF', '').split('\r\n');
      const line = lines.find((l) => l.startsWith(`${id},`));
      const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, line!.split(',')[i]]));
      expect(cells).toMatchObject({ last_contact_method: 'email', last_contact_outcome: 'wrong_number' });
      expect(res.body).not.toContain('Secret note text');
      if (cookie === basic) {
        expect(res.body).not.toContain(made.participant.first_name);
        expect(res.body).not.toContain(made.participant.phone_number);
      }
    }
  });
});

describe('every message’s fate', () => {
  it('lists each push message newest first with status, Firebase’s answer and the token’s tail', async () => {
    const made = await healthyParticipant('fcm-token-for-messages-1a2b3c');
    const id = made.participant.participant_id;
    for (const title of ['First message', 'Second message']) {
      await t.ctx.database.db
        .insert(pushOutbox)
        .values({ participant_id: id, title, body: 'Body text', kind: 'manual', created_at: clock.now() });
    }
    fake.script(made.token, { kind: 'invalid-token' });
    await delivery.deliverDue();
    const url = `/api/participant/${id}/messages`;
    const forFull = (
      await t.app.inject({ method: 'GET', url, headers: { cookie: await session(full) } })
    ).json<{
      data: Record<string, unknown>[];
      pagination: { total: number };
    }>();
    expect(forFull.pagination.total).toBe(2);
    expect(forFull.data[0]).toMatchObject({
      title: 'Second message',
      status: messages.push.sent,
      provider_answer: 'accepted',
      token_tail: '1a2b3c',
    });
    expect(forFull.data[1]).toMatchObject({
      title: 'First message',
      status: messages.push.failed,
      token_tail: '1a2b3c',
    });
    expect(forFull.data[1]!.provider_answer).toMatch(/INVALID_ARGUMENT/);
    const forBasic = (
      await t.app.inject({ method: 'GET', url, headers: { cookie: await session(basic) } })
    ).json<{
      data: Record<string, unknown>[];
    }>();
    expect(forBasic.data[0]).not.toHaveProperty('title');
    expect(forBasic.data[0]).not.toHaveProperty('body');
    // Reading sends nothing.
    const sentBefore = fake.received.length;
    await t.app.inject({ method: 'GET', url, headers: { cookie: await session(full) } });
    await delivery.deliverDue();
    expect(fake.received.length).toBe(sentBefore);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/participant/2147483000/messages',
          headers: { cookie: await session(full) },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('paging and counts', () => {
  it('walks the whole list by cursor without repeats, and the dashboard counts agree', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await healthyParticipant();
      await setDaysMissed(t.ctx.database.db, made.participant.participant_id, 3 + i, programmeToday(t.ctx));
      ids.push(made.participant.participant_id);
    }
    const all = await worklist('?perPage=500');
    const seen: number[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      pages += 1;
      expect(pages).toBeLessThanOrEqual(all.data.length);
      const page = await worklist(`?perPage=2${after ? `&after=${after}` : ''}`);
      seen.push(...page.data.map((r) => r.participant_id));
      after = page.pagination.nextCursor;
    } while (after);
    expect(seen).toEqual(all.data.map((r) => r.participant_id));
    const counts = (
      await t.app.inject({
        method: 'GET',
        url: '/api/followup/counts',
        headers: { cookie: await session(basic) },
      })
    ).json<{
      total: number;
      reasons: Record<string, number>;
    }>();
    // The totals are counted apart from the rows (index-only counts less the snoozed): they must agree.
    expect(all.data.length).toBeLessThan(500);
    expect(all.pagination.total).toBe(all.data.length);
    expect(counts.total).toBe(all.pagination.total);
    // The daily job folds the tally's rows: the totals stay the same.
    await foldFollowupTally(t.ctx.database.db);
    expect((await worklist('?perPage=500')).pagination.total).toBe(all.data.length);
    for (const reason of FOLLOWUP_REASONS) {
      const listed = all.data.filter((r) => r.reasons.includes(reason)).length;
      expect(counts.reasons[reason], reason).toBe(listed);
      expect((await worklist(`?reason=${reason}&perPage=500`)).pagination.total, reason).toBe(listed);
    }
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/followup?reason=late',
          headers: { cookie: await session(basic) },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/followup?after=nonsense',
          headers: { cookie: await session(basic) },
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('the worklist cursor', () => {
  const cursor = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

  it("is refused with the list's message when it belongs to another filter or cannot be read", async () => {
    for (let i = 0; i < 3; i++) {
      const made = await healthyParticipant();
      await setDaysBehind(t.ctx.database.db, made.participant.participant_id, 4 + i);
    }
    const behind = await worklist('?reason=behind&perPage=1');
    expect(behind.pagination.nextCursor).not.toBeNull();
    const valid = JSON.parse(Buffer.from(behind.pagination.nextCursor!, 'base64url').toString()) as unknown[];
    const [, rank, key, id] = valid;
    const refused = [
      // Another filter's cursor, or a rank the filter never lists.
      `?after=${behind.pagination.nextCursor}`,
      `?reason=slightly_behind&after=${cursor(['slightly_behind', rank, key, id])}`,
      `?after=${cursor([null, FOLLOWUP_REASONS.length, key, id])}`,
      // Times the statement's timestamptz cannot take, though JavaScript reads them.
      `?reason=behind&after=${cursor(['behind', rank, '1', id])}`,
      `?reason=behind&after=${cursor(['behind', rank, 'May 5', id])}`,
      `?reason=behind&after=${cursor(['behind', rank, '2026-02-30T00:00:00.000Z', id])}`,
      `?reason=behind&after=${cursor(['behind', rank, key, 0])}`,
      `?reason=behind&after=${cursor(['behind', rank, key])}`,
    ];
    for (const query of refused) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/followup${query}`,
        headers: { cookie: await session(full) },
      });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual({ message: messages.followup.cursorInvalid });
    }
    const next = await worklist(`?reason=behind&perPage=1&after=${cursor(valid)}`);
    expect(next.data).toHaveLength(1);
  });
});

describe('the daily check not running', () => {
  it('shows on the counts: overdue when it has not finished since yesterday', async () => {
    clock.set(new Date());
    const today = programmeToday(t.ctx);
    const counts = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/followup/counts',
          headers: { cookie: await session(basic) },
        })
      ).json<{ daily_check_last_run_on: string | null; daily_check_overdue: boolean }>();
    await t.ctx.database.db.execute('delete from adherence_runs');
    expect(await counts()).toMatchObject({ daily_check_last_run_on: null, daily_check_overdue: true });
    await runAdherenceCheck(t.ctx, { today });
    expect(await counts()).toMatchObject({ daily_check_last_run_on: today, daily_check_overdue: false });
    clock.set(new Date(clock.now().getTime() + DAY));
    expect((await counts()).daily_check_overdue).toBe(false);
    clock.set(new Date(clock.now().getTime() + DAY));
    expect(await counts()).toMatchObject({ daily_check_last_run_on: today, daily_check_overdue: true });
  });
});
