import { eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { rowsOf } from '../../db/rows.js';
import {
  deviceAssignments,
  participantContacts,
  participants,
  participationProgress,
  pushOutbox,
  seenVideos,
} from '../../db/schema.js';
import {
  ManualClock,
  createTestApp,
  signedInCookie,
  type TestAdmin,
  type TestApp,
} from '../../../test/harness.js';
import { addParticipant } from '../../../test/factories.js';
import { makeProgress, makeVideoSet, makeVideos } from '../../../test/programme-factories.js';
import { runAdherenceCheck } from '../adherence/check.js';
import { PushDelivery } from '../push/delivery.js';
import { totpCode } from '../auth/totp.js';
import { tablesAboutParticipants } from './records.js';

// Issue 32, sections 3 to 6 on the API: discharge (each effect on its own), re-referral, the
// records due for review at the boundary day, destruction (every table searched afterwards), the
// subject access ZIP (every table's rows about them, nobody else's), and the step-up.

const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
const TODAY = '2026-03-02';
let t: TestApp;
let full: string;
let fullAdmin: TestAdmin;
let basic: string;
let set: Awaited<ReturnType<typeof makeVideoSet>>;
let videos: Awaited<ReturnType<typeof makeVideos>>;

beforeAll(async () => {
  t = await createTestApp({ clock });
  ({ cookie: full, admin: fullAdmin } = await signedInCookie(t.ctx, 'full access'));
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
  set = await makeVideoSet(t.ctx.database.db, { weeks: 2, perWeek: 3 });
  videos = await makeVideos(t.ctx.database.db, set);
});
afterAll(() => t.close());

/** Sessions are fresh for 5 minutes after sign-in; most tests here keep theirs fresh. */
async function freshSession(): Promise<void> {
  ({ cookie: full, admin: fullAdmin } = await signedInCookie(t.ctx, 'full access'));
}

function api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, cookie = full) {
  return t.app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
  });
}

/** A participant added through the API, on a programme that started ten days ago, signed in on their tablet. */
async function enrolled(overrides: Record<string, unknown> = {}) {
  const { participant, device } = await addParticipant(t, full, overrides);
  const id = participant.participant_id;
  await makeProgress(t.ctx.database.db, id, set.fitness_video_set_id, { started_date: '2026-02-20' });
  const call1 = await t.app.inject({ method: 'GET', url: `/uuid/${device.uuid}` });
  expect(call1.statusCode, call1.body).toBe(200);
  const token = call1.json<{ auth_token: string }>().auth_token;
  return { id, device, token };
}

async function dashboard() {
  return (await api('GET', '/api/dashboard')).json<{
    participantsCount: { counted: number };
    participantsProgress: { onTrack: number; slightlyBehind: number; behind: number };
  }>();
}

const cards = (d: Awaited<ReturnType<typeof dashboard>>) =>
  d.participantsProgress.onTrack + d.participantsProgress.slightlyBehind + d.participantsProgress.behind;

async function gridIds(query = ''): Promise<{ ids: number[]; total: number }> {
  const res = await api('GET', `/api/participant?perPage=500${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ data: { participant_id: number }[]; pagination: { total: number } }>();
  return { ids: body.data.map((p) => p.participant_id), total: body.pagination.total };
}

async function statusCounts(): Promise<Record<string, number>> {
  const rows = rowsOf<{ status: string; n: number }>(
    await t.ctx.database.db.execute(sql`select status, count(*)::int as n from participants group by 1`),
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

describe('discharge', () => {
  it('refuses a withdrawal without a reason, a reason with completion, a future date, and basic access; changes nothing', async () => {
    const { id } = await enrolled();
    const refusals: [unknown, number, string][] = [
      [{ outcome: 'withdrawn' }, 400, 'Please choose why the participant withdrew'],
      [
        { outcome: 'completed', reason: 'moved_away' },
        400,
        'A reason is given only when the participant withdrew',
      ],
      [{ outcome: 'finished' }, 400, 'Outcome must be completed or withdrawn'],
      [{ outcome: 'completed', discharged_on: '2026-03-03' }, 400, messages.lifeCycle.dateInFuture],
    ];
    for (const [body, status, message] of refusals) {
      const res = await api('POST', `/api/participant/${id}/discharge`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(
      (await api('POST', `/api/participant/${id}/discharge`, { outcome: 'completed' }, basic)).statusCode,
    ).toBe(403);
    expect(
      (await api('POST', '/api/participant/999999/discharge', { outcome: 'completed' })).statusCode,
    ).toBe(404);
    const [row] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id));
    expect(row!.status).toBe('active');
    expect(row!.authorized_device_id).not.toBeNull();
  });

  it('ends the participation in one step: each effect checked on its own', async () => {
    const control = await enrolled();
    const leaving = await enrolled();
    const { id, device, token } = leaving;
    // A message queued before the discharge, waiting to be sent.
    expect(
      (await api('POST', '/api/pushNotifications', { participant_id: id, title: 'Hello', body: 'See you' }))
        .statusCode,
    ).toBe(200);
    const [progressBefore] = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, id));
    const before = { dash: await dashboard(), grid: await gridIds(), counts: await statusCounts() };

    const res = await api('POST', `/api/participant/${id}/discharge`, {
      outcome: 'withdrawn',
      reason: 'moved_away',
      note: 'Moved to Cornwall',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      participant_id: id,
      status: 'withdrawn',
      discharged_on: TODAY,
      discharge_reason: 'moved_away',
      discharge_note: 'Moved to Cornwall',
      unique_device_id: 'empty',
    });

    // The device is free again.
    const available = (await api('GET', '/api/authorizeddevices/available')).json<{ uuid: string }[]>();
    expect(available.map((d) => d.uuid)).toContain(device.uuid);
    // The tablet: its token no longer works, and call 1 answers as for an unassigned device.
    const withToken = await t.app.inject({
      method: 'GET',
      url: `/api/participationprogress/${progressBefore!.fitness_participation_progress_id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(withToken.statusCode).toBe(401);
    const call1 = await t.app.inject({ method: 'GET', url: `/uuid/${device.uuid}` });
    expect(call1.statusCode).toBe(404);
    expect(call1.json().message).toBe(messages.deviceApi.notAssigned);
    // The device history: the assignment opened at add is closed now.
    const assignments = await t.ctx.database.db
      .select()
      .from(deviceAssignments)
      .where(eq(deviceAssignments.participant_id, id));
    expect(assignments).toHaveLength(1);
    expect(assignments[0]!.authorized_device_id).toBe(device.authorized_device_id);
    expect(assignments[0]!.unassigned_at).not.toBeNull();

    // No reminder: the queued message is not sent, and the daily check sends them none.
    const queued = await t.ctx.database.db.select().from(pushOutbox).where(eq(pushOutbox.participant_id, id));
    expect(queued.map((q) => q.status)).toEqual([messages.push.discharged]);
    const check = await runAdherenceCheck(t.ctx, { today: '2026-03-02' });
    expect(check.ran).toBe(true);
    const reminders = await t.ctx.database.db
      .select()
      .from(pushOutbox)
      .where(eq(pushOutbox.participant_id, id));
    expect(reminders).toHaveLength(1);
    // ... while the active participant beside them, on the same programme, is reminded.
    const controlReminders = await t.ctx.database.db
      .select()
      .from(pushOutbox)
      .where(eq(pushOutbox.participant_id, control.id));
    expect(controlReminders.length).toBeGreaterThan(0);
    // The programme position is frozen as it was.
    const [progressAfter] = await t.ctx.database.db
      .select()
      .from(participationProgress)
      .where(eq(participationProgress.participant_id, id));
    expect(progressAfter).toEqual(progressBefore);

    // Out of the progress cards and the dashboard's count, and of the grid's default view.
    const after = { dash: await dashboard(), grid: await gridIds(), counts: await statusCounts() };
    expect(after.dash.participantsCount.counted).toBe(before.dash.participantsCount.counted - 1);
    expect(cards(after.dash)).toBe(cards(before.dash) - 1);
    expect(after.dash.participantsCount.counted).toBe(after.counts.active);
    expect(after.grid.ids).not.toContain(id);
    expect(after.grid.total).toBe(after.counts.active);
    const withdrawn = await gridIds('&status=withdrawn');
    expect(withdrawn.ids).toContain(id);
    expect(withdrawn.total).toBe(after.counts.withdrawn);
    const everyone = await gridIds('&status=all');
    expect(everyone.total).toBe(Object.values(after.counts).reduce((a, b) => a + b, 0));
    // By adherence state within a status too (the tally's totals).
    for (const state of ['onTrack', 'slightlybehind', 'behind']) {
      const page = await gridIds(`&state=${state}`);
      expect(page.total, state).toBe(page.ids.length);
    }
    const search = await gridIds(`&q=${id}`);
    expect(search.ids).not.toContain(id);
    expect((await gridIds(`&q=${id}&status=all`)).ids).toContain(id);
  });

  it('makes the record read-only: details, device, programme and messages answer 409 and change nothing', async () => {
    const { id } = await enrolled();
    expect((await api('POST', `/api/participant/${id}/discharge`, { outcome: 'completed' })).statusCode).toBe(
      200,
    );
    const attempts = [
      await api('PATCH', `/api/participant/${id}`, { first_name: 'Changed' }),
      await api('PATCH', `/api/participant/${id}`, { unique_device_id: 'empty' }),
      await api('POST', `/api/video/progress/forward/${id}`, { week: 1, day: 2 }),
      await api('PATCH', `/api/participant/${id}/progress`),
      await api('POST', '/api/pushNotifications', { participant_id: id, title: 'Hello', body: 'Again' }),
      await api('POST', `/api/participant/${id}/discharge`, { outcome: 'completed' }),
    ];
    for (const res of attempts) expect(res.statusCode, res.body).toBe(409);
    expect(attempts[0]!.json().message).toBe(messages.lifeCycle.readOnly);
    expect(attempts[5]!.json().message).toBe(messages.lifeCycle.alreadyDischarged);
    const [row] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, id));
    expect(row!.first_name).not.toBe('Changed');
    // Their history stays readable.
    expect((await api('GET', `/api/participant/${id}`)).statusCode).toBe(200);
    expect((await api('GET', `/api/participationprogress/participant/${id}`)).json()).toHaveLength(1);
  });

  it('audits discharge and re-referral; re-referral makes them active, then a device and a programme are chosen as for a new participant', async () => {
    const { id, device } = await enrolled();
    expect((await api('POST', `/api/participant/${id}/rerefer`)).statusCode).toBe(409);
    expect((await api('POST', `/api/participant/${id}/discharge`, { outcome: 'completed' })).statusCode).toBe(
      200,
    );
    expect((await api('POST', `/api/participant/${id}/rerefer`, undefined, basic)).statusCode).toBe(403);
    const res = await api('POST', `/api/participant/${id}/rerefer`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', discharged_on: null, discharge_reason: null });
    expect((await api('GET', `/api/participationprogress/participant/${id}`)).json()).toEqual([]);
    const audit = rowsOf<{ action: string }>(
      await t.ctx.database.db.execute(
        sql`select action from audit_events where participant_id = ${id} and action in ('participant.discharge', 'participant.rerefer') order by audit_event_id`,
      ),
    );
    expect(audit.map((a) => a.action)).toEqual(['participant.discharge', 'participant.rerefer']);
    // The same tablet again, and a programme.
    const again = await api('PATCH', `/api/participant/${id}`, { unique_device_id: device.uuid });
    expect(again.statusCode, again.body).toBe(200);
    const chosen = await api('POST', '/api/participationprogress', {
      participant_id: id,
      fitness_video_set_id: set.fitness_video_set_id,
    });
    expect(chosen.statusCode, chosen.body).toBe(201);
    const history = await t.ctx.database.db
      .select()
      .from(deviceAssignments)
      .where(eq(deviceAssignments.participant_id, id))
      .orderBy(deviceAssignments.device_assignment_id);
    expect(history.map((h) => h.unassigned_at === null)).toEqual([false, true]);
    expect((await gridIds()).ids).toContain(id);
  });
});

describe('records due for review', () => {
  async function dischargedOn(day: string) {
    const { id } = await enrolled();
    expect((await api('POST', `/api/participant/${id}/discharge`, { outcome: 'completed' })).statusCode).toBe(
      200,
    );
    await t.ctx.database.db
      .update(participants)
      .set({ discharged_on: day })
      .where(eq(participants.participant_id, id));
    return id;
  }

  it('lists a record on the day its retention period ends, not the day before; basic access gets 403', async () => {
    const due = await dischargedOn('2018-03-02');
    const notYet = await dischargedOn('2018-03-03');
    const res = await api('GET', '/api/records/due');
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      retention_years: number;
      data: { participant_id: number; review_due_on: string }[];
    }>();
    expect(body.retention_years).toBe(8);
    const ids = body.data.map((r) => r.participant_id);
    expect(ids).toContain(due);
    expect(ids).not.toContain(notYet);
    expect(body.data.find((r) => r.participant_id === due)!.review_due_on).toBe(TODAY);
    expect((await api('GET', '/api/records/due', undefined, basic)).statusCode).toBe(403);
    expect((await api('POST', '/api/records/destroy', { participant_ids: [due] }, basic)).statusCode).toBe(
      403,
    );
    // The retention job counts them and destroys nothing.
    const { runRetention } = await import('../retention/retention.js');
    const result = await runRetention(t.ctx);
    expect(result.participant_records_due_for_review).toBeGreaterThanOrEqual(1);
    expect((await api('GET', `/api/participant/${due}`)).statusCode).toBe(200);
  });

  it('refuses the whole destruction when one record is not due, and destroys nothing', async () => {
    const due = await dischargedOn('2017-01-01');
    const notYet = await dischargedOn('2019-01-01');
    const { id: active } = await enrolled();
    for (const ids of [
      [due, notYet],
      [due, active],
      [due, 987654],
    ]) {
      const res = await api('POST', '/api/records/destroy', { participant_ids: ids });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(messages.records.notDue(ids.slice(1)));
    }
    expect((await api('POST', '/api/records/destroy', { participant_ids: [] })).statusCode).toBe(400);
    const left = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, due));
    expect(left).toHaveLength(1);
  });

  it('destroys every row about the participant in every table, leaving one audit record with nothing identifiable', async () => {
    const person = {
      first_name: 'Zebedee',
      last_name: 'Quillfeatherdestroyed',
      email: 'zebedee.quill@example.org',
      phone_number: '+447700911111',
      address: '99 Destroyed Lane, Whitby',
    };
    const { id, device } = await enrolled(person);
    const pushToken = 'fcm-token-of-zebedee-0123456789';
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/uuid/${device.uuid}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `push_notification_id=${pushToken}`,
        })
      ).statusCode,
    ).toBe(200);
    await t.ctx.database.db.insert(seenVideos).values({
      participant_id: id,
      video_id: videos[0]!.video_id,
      fitness_video_set_id: set.fitness_video_set_id,
      week_number: 1,
      day_number: 1,
    });
    await t.ctx.database.db.insert(participantContacts).values({
      participant_id: id,
      method: 'phone',
      outcome: 'reached',
      note: 'Spoke to Zebedee about the move',
      admin_user_name: fullAdmin.user_name,
    });
    expect(
      (
        await api('POST', '/api/pushNotifications', {
          participant_id: id,
          title: 'Hello',
          body: 'Keep going',
        })
      ).statusCode,
    ).toBe(200);
    expect((await api('GET', `/api/participant/${id}`)).statusCode).toBe(200);
    expect(
      (
        await api('POST', `/api/participant/${id}/discharge`, {
          outcome: 'withdrawn',
          reason: 'moved_away',
          note: 'Zebedee moved to Whitby',
        })
      ).statusCode,
    ).toBe(200);
    await t.ctx.database.db
      .update(participants)
      .set({ discharged_on: '2016-05-01' })
      .where(eq(participants.participant_id, id));
    // Not the device's uuid: the device is not theirs and stays (with its rate-limit window, on
    // PostgreSQL); their rows that named it (assignments, sign-ins) are found by their id.
    const values = [...Object.values(person), pushToken, 'Spoke to Zebedee', 'Zebedee moved'];
    // Before: the search finds them in many tables (it would find them after, too).
    expect((await search(id, values)).tables.length).toBeGreaterThan(5);

    const res = await api('POST', '/api/records/destroy', { participant_ids: [id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: messages.records.destroyed(1), destroyed: [id] });

    const found = await search(id, values);
    // Only the audit trail names them, by the bare id (kept: it is the record of who accessed the
    // data; docs/participant-life-cycle.md), and no identifiable value is left anywhere.
    expect(found.values).toEqual([]);
    expect(found.tables).toEqual(['audit_events']);
    const destroyed = rowsOf<{
      admin_user_id: number;
      admin_user_name: string;
      detail: string;
      created_at: Date;
    }>(
      await t.ctx.database.db.execute(
        sql`select admin_user_id, admin_user_name, detail, created_at from audit_events where action = 'records.destroy' and participant_id = ${id}`,
      ),
    );
    expect(destroyed).toHaveLength(1);
    expect(destroyed[0]!.admin_user_id).toBe(fullAdmin.admin_user_id);
    expect(destroyed[0]!.detail).toContain('discharged on 2016-05-01');
    // The totals still add up.
    expect((await gridIds('&status=all')).total).toBe(
      Object.values(await statusCounts()).reduce((a, b) => a + b, 0),
    );
  });
});

/**
 * Every column of every table (all schemas but the system's) searched: integer participant ids in
 * columns named participant_id and participant_ids, and each value as text in any text, JSON or
 * array column. Answers the tables where the id is found and `table.column: value` for values.
 */
async function search(id: number, values: string[]): Promise<{ tables: string[]; values: string[] }> {
  const columns = rowsOf<{
    table_schema: string;
    table_name: string;
    column_name: string;
    data_type: string;
  }>(
    await t.ctx.database.db.execute(sql`
      select c.table_schema, c.table_name, c.column_name, c.data_type
      from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
      where tb.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
        and c.table_schema not like 'pg_%'`),
  );
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const tables = new Set<string>();
  const hits: string[] = [];
  for (const c of columns) {
    const from = `${q(c.table_schema)}.${q(c.table_name)}`;
    if (c.column_name === 'participant_id' && c.data_type === 'integer') {
      const [row] = rowsOf<{ n: number }>(
        await t.ctx.database.db.execute(
          sql.raw(`select count(*)::int as n from ${from} where ${q(c.column_name)} = ${id}`),
        ),
      );
      if (Number(row!.n) > 0) tables.add(c.table_name);
    }
    if (c.column_name === 'participant_ids' && c.data_type === 'ARRAY') {
      const [row] = rowsOf<{ n: number }>(
        await t.ctx.database.db.execute(
          sql.raw(`select count(*)::int as n from ${from} where ${id} = any(${q(c.column_name)})`),
        ),
      );
      if (Number(row!.n) > 0) tables.add(c.table_name);
    }
    if (['text', 'character varying', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED'].includes(c.data_type)) {
      for (const value of values) {
        const [row] = rowsOf<{ n: number }>(
          await t.ctx.database.db.execute(
            sql`select count(*)::int as n from ${sql.raw(from)} where ${sql.raw(q(c.column_name))}::text ilike ${`%${value}%`}`,
          ),
        );
        if (Number(row!.n) > 0) hits.push(`${c.table_name}.${c.column_name}: ${value}`);
      }
    }
  }
  return { tables: [...tables].sort(), values: hits.sort() };
}

describe('subject access', () => {
  it('answers one ZIP holding every table’s rows about them and nobody else’s, audited; basic access gets 403', async () => {
    await freshSession();
    const mine = await enrolled({
      first_name: 'Philippa',
      last_name: 'Subjectaccessmine',
      email: 'philippa@example.org',
    });
    const other = await enrolled({
      first_name: 'Otto',
      last_name: 'Someoneelse',
      email: 'otto.else@example.org',
    });
    for (const p of [mine, other]) {
      await t.ctx.database.db.insert(seenVideos).values({
        participant_id: p.id,
        video_id: videos[0]!.video_id,
        fitness_video_set_id: set.fitness_video_set_id,
        week_number: 1,
        day_number: 1,
      });
      await t.ctx.database.db.insert(participantContacts).values({
        participant_id: p.id,
        method: 'phone',
        outcome: 'no_answer',
        admin_user_name: fullAdmin.user_name,
      });
      expect(
        (
          await api('POST', '/api/pushNotifications', {
            participant_id: p.id,
            title: 'Hi',
            body: 'Hello there',
          })
        ).statusCode,
      ).toBe(200);
    }
    // Outcome results: each participant's, and an amendment of theirs.
    const results: Record<number, number> = {};
    for (const p of [mine, other]) {
      const res = await api('POST', `/api/participant/${p.id}/assessments`, {
        timepoint: 'baseline',
        measure: '6MWD',
        taken_on: TODAY,
        value: p === mine ? 312 : 287,
        note: p === mine ? 'Walked with a stick' : 'Otto walked fast',
      });
      expect(res.statusCode, res.body).toBe(201);
      results[p.id] = res.json<{ assessment_id: number }>().assessment_id;
    }
    const amended = await api('POST', `/api/participant/${mine.id}/assessments/${results[mine.id]}/amend`, {
      value: 321,
      reason: 'Digits swapped on the form',
    });
    expect(amended.statusCode, amended.body).toBe(201);
    // A list read names both: the ZIP keeps only their own id of it.
    expect((await gridIds()).ids).toEqual(expect.arrayContaining([mine.id, other.id]));

    expect((await api('GET', `/api/participant/${mine.id}/record`, undefined, basic)).statusCode).toBe(403);
    expect((await api('GET', '/api/participant/999999/record')).statusCode).toBe(404);
    const res = await api('GET', `/api/participant/${mine.id}/record`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/zip');
    expect(res.headers['content-disposition']).toContain(
      `pathway-participant-${mine.id}-record-${TODAY}.zip`,
    );
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const text = Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, strFromU8(bytes)]));
    expect(text['summary.html']).toContain('Philippa');
    expect(text['summary.html']).toContain('Subjectaccessmine');

    const tables = await tablesAboutParticipants(t.ctx.database.db);
    expect(tables).toEqual(
      expect.arrayContaining([
        'participants',
        'participant_adherence',
        'fitness_participation_progress',
        'seen_videos',
        'push_outbox',
        'participant_contacts',
        'device_assignments',
        'device_sign_ins',
        'device_tokens',
        'assessment_results',
        'audit_events',
      ]),
    );
    for (const table of tables) {
      const file = text[`data/${table}.json`];
      expect(file, table).toBeDefined();
      const rows = JSON.parse(file!) as Record<string, unknown>[];
      const [count] = rowsOf<{ n: number }>(
        await t.ctx.database.db.execute(
          table === 'audit_events'
            ? sql`select count(*)::int as n from audit_events where (participant_id = ${mine.id} or ${mine.id} = any(participant_ids)) and action <> 'participant.record_download'`
            : sql`select count(*)::int as n from ${sql.raw(`"${table}"`)} where participant_id = ${mine.id}`,
        ),
      );
      expect(rows.length, table).toBe(Number(count!.n));
      expect(rows.length, `${table} has rows about them`).toBeGreaterThan(0);
      for (const row of rows) {
        if (table !== 'audit_events') expect(row.participant_id, table).toBe(mine.id);
        if (Array.isArray(row.participant_ids)) expect(row.participant_ids, table).toEqual([mine.id]);
      }
    }
    expect(text['data/device_tokens.json']).not.toContain('token_hash');
    // Every result and amendment: the original value stays beside its correction.
    const outcomeRows = JSON.parse(text['data/assessment_results.json']!) as Record<string, unknown>[];
    outcomeRows.sort((a, b) => Number(a.assessment_id) - Number(b.assessment_id));
    // bigint columns come as text from node-postgres, as numbers from PGlite.
    const amendsOf = (r: Record<string, unknown>) => (r.amends === null ? null : Number(r.amends));
    expect(outcomeRows.map((r) => [r.score, amendsOf(r), r.reason])).toEqual([
      [312, null, null],
      [321, results[mine.id], 'Digits swapped on the form'],
    ]);
    expect(text['summary.html']).toContain('Outcome results and their amendments');
    expect(text['summary.html']).toContain('Six-minute walk distance');
    expect(text['summary.html']).toContain('Digits swapped on the form');
    const everything = Object.values(text).join('\n');
    for (const value of [
      'Otto',
      'Someoneelse',
      'otto.else@example.org',
      other.device.uuid,
      'Otto walked fast',
    ]) {
      expect(everything, value).not.toContain(value);
    }
    const audited = rowsOf<{ n: number }>(
      await t.ctx.database.db.execute(
        sql`select count(*)::int as n from audit_events where action = 'participant.record_download' and participant_id = ${mine.id}`,
      ),
    );
    expect(Number(audited[0]!.n)).toBe(1);
  });
});

describe('step-up', () => {
  it('is needed when the last sign-in or step-up is over 5 minutes old, and then not for 5 minutes', async () => {
    await freshSession();
    const a = await enrolled();
    const b = await enrolled();
    clock.advance(5 * 60_000 + 1_000);
    const stale = await api('DELETE', `/api/participant/${a.id}`);
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual({ message: messages.stepUp.required, step_up_required: true });
    // Everything else still works, and the refused action changed nothing.
    expect((await api('GET', `/api/participant/${a.id}`)).statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', `/api/participant/${a.id}/record`],
      ['GET', '/api/participant/export'],
      ['POST', `/api/admin/${encodeURIComponent(fullAdmin.user_name)}/reset-password`],
    ] as const) {
      const res = await api(
        method,
        url,
        method === 'POST' ? { password: 'a new long passphrase 42' } : undefined,
      );
      expect(res.statusCode, url).toBe(401);
      expect(res.json().step_up_required, url).toBe(true);
    }
    // A wrong code is refused like a wrong sign-in and does not step up.
    const wrong = await api('POST', '/api/session/step-up', {
      password: fullAdmin.password,
      mfa_token: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(messages.stepUp.wrong);
    expect((await api('DELETE', `/api/participant/${a.id}`)).statusCode).toBe(401);

    const ok = await api('POST', '/api/session/step-up', {
      password: fullAdmin.password,
      mfa_token: totpCode(fullAdmin.user_name, fullAdmin.totpSecret, clock.now()),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await api('DELETE', `/api/participant/${a.id}`)).statusCode).toBe(200);
    clock.advance(4 * 60_000);
    expect((await api('DELETE', `/api/participant/${b.id}`)).statusCode).toBe(200);
    clock.advance(2 * 60_000);
    expect((await api('GET', '/api/participant/export')).statusCode).toBe(401);
    // Basic access's export holds nothing identifiable: no step-up.
    expect((await api('GET', '/api/participant/export', undefined, basic)).statusCode).toBe(200);
    const steps = rowsOf<{ n: number }>(
      await t.ctx.database.db.execute(
        sql`select count(*)::int as n from audit_events where action = 'session.step_up' and admin_user_id = ${fullAdmin.admin_user_id}`,
      ),
    );
    expect(Number(steps[0]!.n)).toBe(1);
  });
});

describe('the push sender', () => {
  it('marks a message to a participant discharged after it was claimed as not sent', async () => {
    await freshSession();
    const { id } = await enrolled();
    await t.ctx.database.db
      .insert(pushOutbox)
      .values({ participant_id: id, title: 'T', body: 'B', kind: 'manual', status: 'queued' });
    // Discharged behind the outbox's back (as if between claim and send): the sender still skips them.
    await t.ctx.database.db
      .update(participants)
      .set({ status: 'completed', discharged_on: TODAY })
      .where(eq(participants.participant_id, id));
    const sent: string[] = [];
    const delivery = new PushDelivery(t.ctx, {
      name: 'test',
      send: async (m) => {
        sent.push(m.token);
        return { outcome: 'sent' };
      },
    });
    await delivery.deliverDue();
    const rows = await t.ctx.database.db.select().from(pushOutbox).where(eq(pushOutbox.participant_id, id));
    expect(rows.map((r) => r.status)).toEqual([messages.push.discharged]);
  });
});
