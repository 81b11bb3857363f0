import { desc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema.js';
import { createAdmin, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { addParticipant, insertDevice, participantBody } from '../../../test/factories.js';
import { csvCell } from './service.js';

let t: TestApp;
let full: string;
let fullAdmin: { admin_user_id: number; user_name: string };
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie: full, admin: fullAdmin } = await signedInCookie(t.ctx, 'full access'));
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  cookie = full,
  payload?: Record<string, unknown>,
) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, 'x-forwarded-for': '203.0.113.9' },
    ...(payload && { payload }),
  });
}

async function eventsSince(id: number) {
  return t.ctx.database.db
    .select()
    .from(auditEvents)
    .where(sql`${auditEvents.audit_event_id} > ${id}`)
    .orderBy(auditEvents.audit_event_id);
}

async function lastEventId(): Promise<number> {
  const [row] = await t.ctx.database.db
    .select({ id: auditEvents.audit_event_id })
    .from(auditEvents)
    .orderBy(desc(auditEvents.audit_event_id))
    .limit(1);
  return row?.id ?? 0;
}

describe('what is recorded', () => {
  it('records every change with who, what, which participant and from where, never the values', async () => {
    const mark = await lastEventId();
    const { participant } = await addParticipant(t, full, { first_name: 'Secretname' });
    const id = participant.participant_id;
    await call('PATCH', `/api/participant/${id}`, full, {
      phone_number: '+441134960999',
      address: 'Hidden Lane 5',
    });
    await call('PATCH', `/api/participant/${id}`, full, {
      smoker: true,
      referring_organisation: 'Hidden Clinic',
    });
    await call('PATCH', `/api/participant/${id}`, full, { unique_device_id: 'empty' });
    await call('DELETE', `/api/participant/${id}`, full);

    const events = await eventsSince(mark);
    expect(events.map((e) => [e.action, e.participant_id, e.detail])).toEqual([
      ['participant.create', id, null],
      ['participant.update', id, 'phone_number, address'],
      ['referral.update', id, 'referring_organisation, smoker'],
      ['participant.update', id, 'device detached'],
      ['participant.delete', id, null],
    ]);
    for (const e of events) {
      expect(e.admin_user_id).toBe(fullAdmin.admin_user_id);
      expect(e.admin_user_name).toBe(fullAdmin.user_name);
      expect(e.created_at).toBeInstanceOf(Date);
      expect(e.ip).toBe('127.0.0.1'); // app.inject's client address
      expect(JSON.stringify(e)).not.toMatch(/Secretname|Hidden|4960999/);
    }
  });

  it('records each full-access read of identifiable data, with every participant a list returned', async () => {
    await addParticipant(t, full);
    await addParticipant(t, full);
    const { participant, device } = await addParticipant(t, full);
    const id = participant.participant_id;
    const mark = await lastEventId();
    const page = (await call('GET', '/api/participant?perPage=3&sort=participant_id&order=desc')).json();
    await call('GET', `/api/participant/${id}`);
    await call('GET', `/api/participant/${id}/referral`);
    await call('GET', '/api/authorizeddevices');
    await call('GET', `/api/authorizeddevices/${device.uuid}`);

    const events = await eventsSince(mark);
    expect(events.map((e) => e.action)).toEqual([
      'participant.list',
      'participant.read',
      'referral.read',
      'device.list',
      'device.read',
    ]);
    expect(events[0]!.participant_ids).toEqual(
      page.data.map((p: { participant_id: number }) => p.participant_id),
    );
    expect(page.data).toHaveLength(3);
    expect(events[0]!.detail).toBe('page 1, 3 rows, sort participant_id desc');
    expect(events[1]!.participant_id).toBe(id);
    expect(events[2]!.participant_id).toBe(id);
    expect(events[3]!.participant_ids).toContain(id);
    expect(events[4]!.participant_id).toBe(id);
  });

  it('records messages sent and basic-access changes, but not basic reads (they carry nothing identifiable)', async () => {
    const { participant, device } = await addParticipant(t, full);
    const mark = await lastEventId();
    await call('GET', '/api/participant', basic);
    await call('GET', `/api/participant/${participant.participant_id}`, basic);
    await call('GET', '/api/authorizeddevices', basic);
    await call('PATCH', `/api/participant/${participant.participant_id}`, basic, { language: 'Urdu' });
    await call('POST', '/api/pushNotifications', basic, {
      title: 'Hello',
      body: 'Keep going',
      uuid: device.uuid,
    });
    const events = await eventsSince(mark);
    expect(events.map((e) => [e.action, e.participant_id, e.detail])).toEqual([
      ['participant.update', participant.participant_id, 'language'],
      ['message.send', participant.participant_id, null],
    ]);
  });

  it('records nothing for a refused change, and a failed change leaves no record', async () => {
    const { participant } = await addParticipant(t, full);
    const taken = await addParticipant(t, full);
    const mark = await lastEventId();
    expect(
      (await call('PATCH', `/api/participant/${participant.participant_id}`, basic, { first_name: 'Nope' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/api/participant/${participant.participant_id}`, full, { first_name: '' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call('PATCH', `/api/participant/${participant.participant_id}`, full, {
          first_name: 'Fine',
          unique_device_id: taken.device.uuid,
        })
      ).statusCode,
    ).toBe(409);
    const spare = await insertDevice(t.ctx);
    expect(
      (await call('POST', '/api/participant', full, participantBody(spare.uuid, { phone_number: '123' })))
        .statusCode,
    ).toBe(400);
    expect(await eventsSince(mark)).toEqual([]);
  });
});

describe('reading the trail', () => {
  it('pages newest first for full access', async () => {
    await addParticipant(t, full);
    // An aggregate without GROUP BY returns exactly one row.
    const { n } = (await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents))[0]!;
    const first = await call('GET', '/api/audit?page=1&perPage=2');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.pagination).toMatchObject({
      total: n,
      perPage: 2,
      currentPage: 1,
      lastPage: Math.ceil(n / 2),
      from: 1,
      to: 2,
    });
    expect(body.data[0]).toMatchObject({
      action: 'participant.create',
      action_label: 'Added participant',
      admin_user_name: fullAdmin.user_name,
    });
    expect(body.data[0].audit_event_id).toBeGreaterThan(body.data[1].audit_event_id);
    const second = (await call('GET', '/api/audit?page=2&perPage=2')).json();
    expect(second.data[0].audit_event_id).toBeLessThan(body.data[1].audit_event_id);
    expect((await call('GET', '/api/audit?perPage=0')).statusCode).toBe(400);
  });

  it('exports the whole trail as CSV', async () => {
    // An aggregate without GROUP BY returns exactly one row.
    const { n } = (await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(auditEvents))[0]!;
    const res = await call('GET', '/api/audit/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'audit_event_id,created_at,admin_user_id,admin_user_name,action,participant_id,participant_ids,detail,ip,action_label',
    );
    // The header, every record there was, and the export's own record (written before the first row).
    expect(lines).toHaveLength(n + 2);
    const newest = (await call('GET', '/api/audit?perPage=1')).json().data[0];
    expect(
      lines[1]!.startsWith(
        `${newest.audit_event_id},${newest.created_at},${fullAdmin.admin_user_id},${fullAdmin.user_name},`,
      ),
    ).toBe(true);
  });

  it('neutralises spreadsheet formulas and quotes separators', async () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell([3, 4])).toBe('3 4');
    expect(csvCell(null)).toBe('');
    const sneaky = await createAdmin(t.ctx, 'full access', { user_name: '=cmd|calc@example.org' });
    const { token } = await t.ctx.sessions.start(sneaky.admin_user_id, 'full access', '127.0.0.1');
    await addParticipant(t, `jwt=${token}`);
    const res = await call('GET', '/api/audit/export');
    expect(res.body).toContain(",'=cmd|calc@example.org,");
  });

  it('is for full access only', async () => {
    expect((await call('GET', '/api/audit', basic)).statusCode).toBe(403);
    expect((await call('GET', '/api/audit/export', basic)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
  });
});
