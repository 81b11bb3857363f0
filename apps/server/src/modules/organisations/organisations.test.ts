import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { rowsOf } from '../../db/rows.js';
import { addParticipant, insertDevice, participantBody } from '../../../test/factories.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';

const m = messages.organisation;
let t: TestApp;
/** A full-access system administrator (as an upgraded instance's full-access admins are). */
let system: string;
let systemName: string;
/** A full-access admin of the first organisation who does not run the instance. */
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  const systemAdmin = await signedInCookie(t.ctx, 'full access', { system_administrator: true });
  system = systemAdmin.cookie;
  systemName = systemAdmin.admin.user_name;
  full = (await signedInCookie(t.ctx, 'full access', { system_administrator: false })).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });

const unique = () => randomBytes(3).toString('hex');
/** A valid ODS code nobody has: 5 letters and digits. */
const odsCode = () => `Q${randomBytes(2).toString('hex').toUpperCase()}`;

/** Rows of the tables a refused request must leave as they were. */
async function snapshot(): Promise<string> {
  const [row] = rowsOf<{ s: string }>(
    await t.ctx.database.db.execute(sql`
      select (select count(*) from organisations)::text || '/' || (select count(*) from sites)::text || '/' ||
        (select count(*) from admin_users)::text || '/' || (select count(*) from participants)::text || '/' ||
        (select string_agg(participant_id || ':' || site_id, ',' order by participant_id) from participants) as s`),
  );
  return row!.s;
}

async function newOrganisation(name = `Trust ${unique()}`, ods = odsCode()) {
  const res = await call('POST', '/api/organisations', system, { name, ods_code: ods });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ organisation_id: number; name: string; ods_code: string }>();
}

async function sitesOf(organisationId: number, cookie = system) {
  const res = await call('GET', `/api/organisations/${organisationId}/sites`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ site_id: number; name: string; organisation_id: number }[]>();
}

describe('organisations', () => {
  it('are made by a system administrator, each with a first site of its name and ODS code', async () => {
    const name = `Leeds Teaching Hospitals ${unique()}`;
    const res = await call('POST', '/api/organisations', system, { name, ods_code: ' rr8x ' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({ name, ods_code: 'RR8X', sites: 1, participants: 0 });
    expect(await sitesOf(created.organisation_id)).toMatchObject([
      { name, ods_code: 'RR8X', organisation_id: created.organisation_id },
    ]);
    // The instance's own record, read by system administrators.
    const audit = await call('GET', '/api/audit?action=organisation.create', system);
    expect(audit.json().data[0].detail).toContain(name);
  });

  it('are listed each with the number of its own sites and participants', async () => {
    const one = await newOrganisation();
    const two = await newOrganisation();
    const added = await call('POST', `/api/organisations/${two.organisation_id}/sites`, system, {
      name: `North ${unique()}`,
    });
    expect(added.statusCode, added.body).toBe(201);
    const res = await call('GET', '/api/organisations', system);
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json<{ organisation_id: number; sites: number; participants: number }[]>();
    expect(listed.find((o) => o.organisation_id === one.organisation_id)?.sites).toBe(1);
    expect(listed.find((o) => o.organisation_id === two.organisation_id)?.sites).toBe(2);
    expect(listed.find((o) => o.organisation_id === one.organisation_id)?.participants).toBe(0);
  });

  it('refuses a bad ODS code, a duplicate name or ODS code, and anyone but a system administrator, changing nothing', async () => {
    const taken = await newOrganisation();
    const before = await snapshot();
    const refusals: [string, object, number, string][] = [
      [system, { name: `Trust ${unique()}`, ods_code: 'R1' }, 400, m.odsCodeInvalid],
      [system, { name: `Trust ${unique()}`, ods_code: 'RR8-1' }, 400, m.odsCodeInvalid],
      [system, { name: `Trust ${unique()}`, ods_code: '' }, 400, m.odsCodeEmpty],
      [system, { name: '', ods_code: odsCode() }, 400, m.nameEmpty],
      [system, { name: taken.name.toUpperCase(), ods_code: odsCode() }, 409, m.nameTaken],
      [system, { name: `Trust ${unique()}`, ods_code: taken.ods_code }, 409, m.odsCodeTaken],
      [full, { name: `Trust ${unique()}`, ods_code: odsCode() }, 403, messages.session.forbidden],
      [basic, { name: `Trust ${unique()}`, ods_code: odsCode() }, 403, messages.session.forbidden],
    ];
    for (const [cookie, body, status, message] of refusals) {
      const res = await call('POST', '/api/organisations', cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    const rename = await call('PATCH', `/api/organisations/${taken.organisation_id}`, full, {
      name: 'Mine now',
    });
    expect(rename.statusCode).toBe(403);
    expect((await call('PATCH', '/api/organisations/999999', system, { name: 'Nobody' })).statusCode).toBe(
      404,
    );
    expect(await snapshot()).toBe(before);
  });

  it('are listed whole to a system administrator, and to anyone else only their own', async () => {
    const other = await newOrganisation();
    const all = (await call('GET', '/api/organisations', system)).json<{ organisation_id: number }[]>();
    expect(all.map((o) => o.organisation_id)).toContain(other.organisation_id);
    for (const cookie of [full, basic]) {
      const own = (await call('GET', '/api/organisations', cookie)).json<{ organisation_id: number }[]>();
      expect(own.map((o) => o.organisation_id)).toEqual([1]);
      // Another organisation's sites are not found, as if there were none.
      const theirs = await call('GET', `/api/organisations/${other.organisation_id}/sites`, cookie);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().message).toBe(m.notFound);
    }
  });

  it('are renamed and given an ODS code; sites are added and renamed, a duplicate site name refused', async () => {
    const org = await newOrganisation();
    const renamed = await call('PATCH', `/api/organisations/${org.organisation_id}`, system, {
      name: `${org.name} NHS Trust`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: `${org.name} NHS Trust`, ods_code: org.ods_code });
    const site = await call('POST', `/api/organisations/${org.organisation_id}/sites`, system, {
      name: 'St James Hub',
      ods_code: 'rr801',
    });
    expect(site.statusCode, site.body).toBe(201);
    expect(site.json()).toMatchObject({ name: 'St James Hub', ods_code: 'RR801' });
    const again = await call('POST', `/api/organisations/${org.organisation_id}/sites`, system, {
      name: 'st james hub',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(m.siteNameTaken);
    const patched = await call('PATCH', `/api/sites/${site.json().site_id}`, system, { ods_code: '' });
    expect(patched.json()).toMatchObject({ name: 'St James Hub', ods_code: null });
    expect((await call('PATCH', '/api/sites/999999', system, { name: 'Nowhere' })).statusCode).toBe(404);
    expect(
      (await call('POST', '/api/organisations/999999/sites', system, { name: 'Nowhere' })).statusCode,
    ).toBe(404);
  });
});

describe('admin users of organisations', () => {
  it("a system administrator adds another organisation's first admin, who signs in to it alone", async () => {
    const org = await newOrganisation();
    const res = await call('POST', '/api/admin', system, {
      user_name: `lead.${unique()}@example.org`,
      password: 'a long enough passphrase for a lead',
      role: 'full access',
      organisation_id: org.organisation_id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      organisation_id: org.organisation_id,
      site_ids: [],
      system_administrator: false,
    });
    const { token } = await t.ctx.sessions.start(res.json().admin_user_id, 'full access', '127.0.0.1');
    const session = (await call('GET', '/api/session', `jwt=${token}`)).json();
    expect(session).toMatchObject({
      organisation: { organisation_id: org.organisation_id, name: org.name, ods_code: org.ods_code },
      sites: [{ name: org.name }],
      site_ids: [],
      system_administrator: false,
    });
    // Their admin list is their organisation's.
    const listed = (await call('GET', '/api/admin', `jwt=${token}`)).json<{ organisation_id: number }[]>();
    expect(new Set(listed.map((a) => a.organisation_id))).toEqual(new Set([org.organisation_id]));
  });

  it("refuses another organisation's admins, the system administrator flag and foreign sites to anyone but a system administrator", async () => {
    const org = await newOrganisation();
    const [theirSite] = await sitesOf(org.organisation_id);
    const before = await snapshot();
    const body = { user_name: `x.${unique()}@example.org`, password: 'a long enough passphrase here' };
    const refusals: [string, object, number, string][] = [
      [full, { ...body, organisation_id: org.organisation_id }, 403, m.otherOrganisationAdmins],
      [full, { ...body, system_administrator: true }, 403, m.systemAdministratorOnly],
      [full, { ...body, site_ids: [theirSite!.site_id] }, 400, m.siteOfOtherOrganisation],
      [system, { ...body, site_ids: [theirSite!.site_id] }, 400, m.siteOfOtherOrganisation],
      [system, { ...body, organisation_id: 999999 }, 400, m.notFound],
    ];
    for (const [cookie, payload, status, message] of refusals) {
      const res = await call('POST', '/api/admin', cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(await snapshot()).toBe(before);
  });

  it('limits an admin to sites, and an admin so limited gives no more than their own sites', async () => {
    const extra = (
      await call('POST', '/api/organisations/1/sites', system, { name: `Hub ${unique()}` })
    ).json<{ site_id: number }>();
    const limited = await signedInCookie(t.ctx, 'full access', {
      system_administrator: false,
      site_ids: [extra.site_id],
    });
    const session = (await call('GET', '/api/session', limited.cookie)).json();
    expect(session.site_ids).toEqual([extra.site_id]);
    expect(session.sites.map((s: { site_id: number }) => s.site_id)).toEqual([extra.site_id]);
    const body = { user_name: `y.${unique()}@example.org`, password: 'a long enough passphrase here' };
    // Every site (no limit) is more than they have.
    const wider = await call('POST', '/api/admin', limited.cookie, body);
    expect(wider.statusCode).toBe(403);
    expect(wider.json().message).toBe(m.siteNotYours);
    const same = await call('POST', '/api/admin', limited.cookie, { ...body, site_ids: [extra.site_id] });
    expect(same.statusCode, same.body).toBe(201);
    // An admin of every site is beyond them too.
    const unlimited = await signedInCookie(t.ctx, 'basic access');
    const change = await call('PATCH', `/api/admin/${unlimited.admin.user_name}`, limited.cookie, {
      first_name: 'Changed',
    });
    expect(change.statusCode).toBe(403);
    const audited = await call('PATCH', `/api/admin/${unlimited.admin.user_name}`, full, {
      site_ids: [extra.site_id],
    });
    expect(audited.json().site_ids).toEqual([extra.site_id]);
    const audit = await call('GET', '/api/audit?action=admin.sites_change', full);
    expect(audit.json().data[0].detail).toContain(`every site to sites ${extra.site_id}`);
  });

  it('keeps the last system administrator, and only a system administrator makes or unmakes one', async () => {
    const other = await signedInCookie(t.ctx, 'basic access');
    const byFull = await call('PATCH', `/api/admin/${other.admin.user_name}`, full, {
      system_administrator: true,
    });
    expect(byFull.statusCode).toBe(403);
    expect(byFull.json().message).toBe(m.systemAdministratorOnly);
    const made = await call('PATCH', `/api/admin/${other.admin.user_name}`, system, {
      system_administrator: true,
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().system_administrator).toBe(true);
    // Every other system administrator unmade, then the last one: it stays.
    const admins = (await call('GET', '/api/admin', system)).json<
      { user_name: string; system_administrator: boolean }[]
    >();
    for (const admin of admins.filter((a) => a.system_administrator && a.user_name !== systemName)) {
      const res = await call('PATCH', `/api/admin/${admin.user_name}`, system, {
        system_administrator: false,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const last = await call('PATCH', `/api/admin/${systemName}`, system, { system_administrator: false });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(m.lastSystemAdministrator);
    const remaining = (await call('GET', '/api/admin', system)).json<
      { user_name: string; system_administrator: boolean }[]
    >();
    expect(remaining.filter((a) => a.system_administrator).map((a) => a.user_name)).toEqual([systemName]);
  });
});

describe('participants and sites', () => {
  it('take the only site, and once there is a choice must name one of the organisation', async () => {
    const org = await newOrganisation();
    const lead = await signedInCookie(t.ctx, 'full access', {
      organisation_id: org.organisation_id,
      system_administrator: false,
    });
    const [first] = await sitesOf(org.organisation_id);
    const device = await insertDevice(t.ctx, { organisation_id: org.organisation_id });
    const res = await call('POST', '/api/participant', lead.cookie, participantBody(device.uuid));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().site_id).toBe(first!.site_id);

    const second = (
      await call('POST', `/api/organisations/${org.organisation_id}/sites`, system, { name: 'Second hub' })
    ).json<{ site_id: number }>();
    const before = await snapshot();
    const other = await insertDevice(t.ctx, { organisation_id: org.organisation_id });
    const unnamed = await call('POST', '/api/participant', lead.cookie, participantBody(other.uuid));
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toBe(m.siteRequired);
    const foreign = await call(
      'POST',
      '/api/participant',
      lead.cookie,
      participantBody(other.uuid, { site_id: 1 }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(m.siteOfOtherOrganisation);
    expect(await snapshot()).toBe(before);
    const named = await call(
      'POST',
      '/api/participant',
      lead.cookie,
      participantBody(other.uuid, { site_id: second.site_id }),
    );
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().site_id).toBe(second.site_id);
  });

  it('are transferred to another site of their organisation, audited, with their tablet', async () => {
    const { participant, device } = await addParticipant(t, full, { site_id: 1 });
    const hub = (
      await call('POST', '/api/organisations/1/sites', system, { name: `Transfer hub ${unique()}` })
    ).json<{ site_id: number; name: string }>();
    const foreign = (await sitesOf((await newOrganisation()).organisation_id))[0]!;
    const before = await snapshot();
    const refusals: [number, object, number, string][] = [
      [participant.participant_id, { site_id: participant.site_id as number }, 400, m.transferSameSite],
      [participant.participant_id, { site_id: foreign.site_id }, 400, m.siteOfOtherOrganisation],
      [participant.participant_id, { site_id: 999999 }, 400, m.siteOfOtherOrganisation],
      [999999, { site_id: hub.site_id }, 404, messages.participant.notFound],
    ];
    for (const [id, body, status, message] of refusals) {
      const res = await call('POST', `/api/participant/${id}/transfer`, full, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().message).toBe(message);
    }
    expect(
      (
        await call('POST', `/api/participant/${participant.participant_id}/transfer`, basic, {
          site_id: hub.site_id,
        })
      ).statusCode,
    ).toBe(403);
    expect(await snapshot()).toBe(before);

    const moved = await call('POST', `/api/participant/${participant.participant_id}/transfer`, full, {
      site_id: hub.site_id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().message).toBe(m.transferred(hub.name));
    const after = (await call('GET', `/api/participant/${participant.participant_id}`, full)).json();
    expect(after).toMatchObject({ site_id: hub.site_id, unique_device_id: device.uuid });
    const audit = (await call('GET', '/api/audit?action=participant.transfer', full)).json().data[0];
    expect(audit).toMatchObject({ participant_id: participant.participant_id });
    expect(audit.detail).toContain(
      `(id ${participant.site_id as number}) to site ${hub.name} (id ${hub.site_id})`,
    );
  });
});

describe('shared video sets', () => {
  it('are published and changed by system administrators alone', async () => {
    const refused = await call('POST', '/api/videoset', full, {
      set_name: 'Everyone',
      number_of_weeks: 1,
      videos_in_week: 1,
      shared: true,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(m.systemAdministratorOnly);
    const shared = await call('POST', '/api/videoset', system, {
      set_name: 'National library',
      number_of_weeks: 1,
      videos_in_week: 1,
      shared: true,
    });
    expect(shared.statusCode, shared.body).toBe(201);
    expect(shared.json()).toMatchObject({ shared: true, organisation_id: 1 });
    const id = shared.json().fitness_video_set_id as number;
    const rename = await call('PATCH', `/api/videoset/${id}`, full, { set_name: 'Ours now' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe(m.sharedSetReadOnly);
    expect((await call('DELETE', `/api/videoset/${id}`, basic)).statusCode).toBe(403);
    const unshare = await call('PATCH', `/api/videoset/${id}`, full, { shared: false });
    expect(unshare.statusCode).toBe(403);
    const renamed = await call('PATCH', `/api/videoset/${id}`, system, { set_name: 'National library 2' });
    expect(renamed.json()).toMatchObject({ set_name: 'National library 2', shared: true });
  });
});
