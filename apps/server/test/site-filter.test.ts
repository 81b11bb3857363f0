import { desc, eq } from 'drizzle-orm';
import { REPORT_NAMES, api, messages, type Endpoint } from '@pathway/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sites } from '../src/db/schema.js';
import { programmeToday } from '../src/lib/programme-day.js';
import { setDaysMissed } from './factories.js';
import { createTestApp, signedInCookie, type TestApp } from './harness.js';
import { SITE_FILTERED_ROUTES } from './security/tenancy-cases.js';
import { seedTenancy, type TenancyWorld } from './security/tenancy-world.js';

// `?site_id=`: one site among those the admin sees, on the lists, counts, dashboard, reports and
// exports. Organisation A has sites A1 and A2 and organisation B one site, each with a participant
// with a programme, a view, a contact and a result (the tenancy test's world). An admin of every
// site of A filtering to A2 is answered exactly what an admin limited to A2 is answered, and that
// is less than the whole organisation; a site the admin does not see is "Site not found".

let t: TestApp;
let world: TenancyWorld;
let a1: number;
/** A full-access admin of A limited to A2: what the filter to A2 must answer, by the scope itself. */
let onlyA2: string;

const PERIOD = 'from=2025-01-01&to=2026-12-31';

/** Every route that takes the filter, with a request it accepts (the filter is appended). */
const FILTERED: { route: Endpoint; url: string }[] = [
  { route: api.participants.list, url: '/api/participant?perPage=100&status=all' },
  { route: api.participants.export, url: '/api/participant/export?status=all' },
  { route: api.followup.list, url: '/api/followup?perPage=500' },
  { route: api.followup.counts, url: '/api/followup/counts' },
  { route: api.dashboard.get, url: '/api/dashboard' },
  ...REPORT_NAMES.map((name) => ({ route: api.reports.get, url: `/api/reports/${name}?${PERIOD}&by=month` })),
  { route: api.reports.outcomes, url: `/api/reports/outcomes?${PERIOD}&measure=6MWD` },
  { route: api.reports.exportXlsx, url: `/api/reports/export.xlsx?${PERIOD}` },
];

const withSite = (url: string, siteId: number | string) =>
  `${url}${url.includes('?') ? '&' : '?'}site_id=${siteId}`;

async function get(cookie: string, url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { cookie } });
}

async function ok(cookie: string, url: string): Promise<LightMyRequestResponse> {
  const res = await get(cookie, url);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
  return res;
}

/** The participant ids of a page, a worklist or a CSV's first column. */
function participantIds(res: LightMyRequestResponse): number[] {
  if (String(res.headers['content-type']).includes('csv'))
    return res.body
      .split(/\r?\n/)
      .slice(1)
      .filter(Boolean)
      .map((line) => Number(line.split(',')[0]));
  return res.json<{ data: { participant_id: number }[] }>().data.map((row) => row.participant_id);
}

/** Every sheet of a workbook but the first (which says who made it, when, and of which sites). */
async function workbookFigures(res: LightMyRequestResponse): Promise<unknown[][][]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return workbook.worksheets.slice(1).map((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push(row.values as unknown[]));
    return rows;
  });
}

async function latestAudit(action: string) {
  const [row] = await t.ctx.database.db
    .select({ detail: auditEvents.detail, participant_ids: auditEvents.participant_ids })
    .from(auditEvents)
    .where(eq(auditEvents.action, action))
    .orderBy(desc(auditEvents.audit_event_id))
    .limit(1);
  return row;
}

async function auditCount(): Promise<number> {
  return (await t.ctx.database.db.select({ id: auditEvents.audit_event_id }).from(auditEvents)).length;
}

beforeAll(async () => {
  t = await createTestApp();
  world = await seedTenancy(t);
  a1 = world.orgA.place.siteId;
  onlyA2 = (
    await signedInCookie(t.ctx, 'full access', { system_administrator: false, site_ids: [world.a2.siteId] })
  ).cookie;
  // Everyone on the worklist: three days went by without their video.
  await setDaysMissed(
    t.ctx.database.db,
    [world.orgA.place.participantId, world.a2.participantId, world.b.participantId],
    3,
    programmeToday(t.ctx),
  );
});
afterAll(() => t.close());

describe('the site filter', () => {
  it('is on every list, count, report and export the contract gives it, and in the OpenAPI document', async () => {
    expect(SITE_FILTERED_ROUTES).toEqual(
      new Set(FILTERED.map(({ route }) => `${route.method} ${route.path}`)),
    );
    const doc = (await t.app.inject('/api/docs/json')).json<{
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    }>();
    for (const { route } of FILTERED) {
      const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]![route.method.toLowerCase()]!;
      expect(
        operation.parameters?.some((p) => p.in === 'query' && p.name === 'site_id'),
        `${route.method} ${route.path}`,
      ).toBe(true);
    }
  });

  it("answers an admin of every site filtering to a site exactly what that site's own admin is answered", async () => {
    for (const { url } of FILTERED) {
      const filtered = await ok(world.orgA.cookie, withSite(url, world.a2.siteId));
      const own = await ok(onlyA2, url);
      if (url.includes('.xlsx'))
        expect(await workbookFigures(filtered), url).toEqual(await workbookFigures(own));
      else if (url.includes('/export')) expect(filtered.body, url).toBe(own.body);
      else expect(filtered.json(), url).toEqual(own.json());
    }
  });

  it("lists only the site's participants, and counts only them", async () => {
    const everySite = [world.orgA.place.participantId, world.a2.participantId].sort();
    for (const url of [
      '/api/participant?perPage=100&status=all',
      '/api/participant/export?status=all',
      '/api/followup',
    ]) {
      expect(participantIds(await ok(world.orgA.cookie, url)).sort(), url).toEqual(everySite);
      expect(participantIds(await ok(world.orgA.cookie, withSite(url, world.a2.siteId))), url).toEqual([
        world.a2.participantId,
      ]);
      expect(participantIds(await ok(world.orgA.cookie, withSite(url, a1))), url).toEqual([
        world.orgA.place.participantId,
      ]);
    }
    const list = (
      await ok(world.orgA.cookie, withSite('/api/participant?status=all', world.a2.siteId))
    ).json();
    expect(list.pagination.total).toBe(1);
    const csv = await ok(world.orgA.cookie, withSite('/api/participant/export?status=all', world.a2.siteId));
    expect(csv.headers['x-total-count']).toBe('1');

    const counts = async (url: string) => (await ok(world.orgA.cookie, url)).json<{ total: number }>().total;
    expect(await counts('/api/followup/counts')).toBe(2);
    expect(await counts(withSite('/api/followup/counts', world.a2.siteId))).toBe(1);

    const dashboard = async (url: string) =>
      (await ok(world.orgA.cookie, url)).json<{ participantsCount: { counted: number } }>().participantsCount
        .counted;
    expect(await dashboard('/api/dashboard')).toBe(2);
    expect(await dashboard(withSite('/api/dashboard', world.a2.siteId))).toBe(1);

    const referred = async (url: string) =>
      (await ok(world.orgA.cookie, url))
        .json<{ rows: { referred: number }[] }>()
        .rows.reduce((sum, row) => sum + row.referred, 0);
    expect(await referred(`/api/reports/referrals?${PERIOD}`)).toBe(2);
    expect(await referred(withSite(`/api/reports/referrals?${PERIOD}`, world.a2.siteId))).toBe(1);
  });

  it('says in the audit trail which site was read or exported, and in the workbook', async () => {
    const site = `site ${world.a2.siteId}`;
    await ok(world.orgA.cookie, withSite('/api/participant?status=all', world.a2.siteId));
    expect((await latestAudit('participant.list'))!.detail).toContain(site);
    await ok(world.orgA.cookie, withSite('/api/participant/export?status=all', world.a2.siteId));
    const exported = await latestAudit('participant.export');
    expect(exported!.detail).toContain(site);
    expect(exported!.participant_ids).toEqual([world.a2.participantId]);
    await ok(world.orgA.cookie, withSite('/api/followup', world.a2.siteId));
    expect((await latestAudit('followup.list'))?.detail ?? '').toContain(site);
    await ok(world.orgA.cookie, withSite(`/api/reports/flow?${PERIOD}`, world.a2.siteId));
    expect((await latestAudit('report.view'))!.detail).toContain(site);
    await ok(world.orgA.cookie, withSite(`/api/reports/outcomes?${PERIOD}&measure=6MWD`, world.a2.siteId));
    expect((await latestAudit('report.view'))!.detail).toContain(site);
    const xlsx = await ok(world.orgA.cookie, withSite(`/api/reports/export.xlsx?${PERIOD}`, world.a2.siteId));
    expect((await latestAudit('report.export'))!.detail).toContain(site);
    const [a2] = await t.ctx.database.db.select().from(sites).where(eq(sites.site_id, world.a2.siteId));
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const about: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row) => about.push((row.values as unknown[]).slice(1)));
    expect(about).toContainEqual(['Sites', `${a2!.name} only`]);
  });

  it("refuses a site the admin does not see with 404 and reads nothing: another organisation's, one outside their sites, none", async () => {
    const cases = [
      { who: 'an admin of every site of A', cookie: world.orgA.cookie, siteId: world.b.siteId },
      { who: 'an admin of every site of A', cookie: world.orgA.cookie, siteId: 2147483647 },
      { who: 'an admin of A2 alone', cookie: onlyA2, siteId: a1 },
      { who: 'an admin of A2 alone', cookie: onlyA2, siteId: world.b.siteId },
    ];
    for (const { url } of FILTERED) {
      for (const { who, cookie, siteId } of cases) {
        const before = await auditCount();
        const res = await get(cookie, withSite(url, siteId));
        expect([res.statusCode, res.json()], `${url} as ${who} with site ${siteId}`).toEqual([
          404,
          { message: messages.organisation.siteNotFound },
        ]);
        expect(await auditCount(), `${url} as ${who}: nothing read, nothing recorded`).toBe(before);
      }
    }
  });

  it('refuses a site_id that is no site id with 400 and its message', async () => {
    for (const { url } of FILTERED) {
      for (const [value, message] of [
        ['abc', messages.organisation.siteFilterInvalid],
        ['0', messages.organisation.siteFilterInvalid],
        ['-1', messages.organisation.siteFilterInvalid],
        ['1.5', messages.organisation.siteFilterInvalid],
        ['', messages.organisation.siteFilterInvalid],
        ['2147483648', messages.organisation.siteFilterRange],
      ] as const) {
        const res = await get(world.orgA.cookie, withSite(url, value));
        expect([res.statusCode, res.json<{ message: string }>().message], `${url} site_id=${value}`).toEqual([
          400,
          message,
        ]);
      }
    }
  });
});
