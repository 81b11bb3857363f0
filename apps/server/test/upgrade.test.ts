import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlobKey } from '../src/storage/blob-store.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { totpCode } from '../src/modules/auth/totp.js';
import { runCli, startServerProcess } from './process.js';
import { processSite, type ProcessSite } from './resilience/helpers.js';

// The upgrade every deployment goes through: a database made by release 0.1.0's migrations
// (fixtures/release-0.1.0/migrations, a frozen copy) and filled with its demo data
// (fixtures/release-0.1.0/demo-data.sql: `npm run cli -- seed-demo` on 0.1.0, then
// `pg_dump --data-only --column-inserts --schema=public`), with its media files, is started by
// the current code. Every migration added since must apply to it, keep every row and file, and
// leave a working app. A new migration is covered by this test without any change to it.
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/release-0.1.0');
const baselineMigrations = path.join(fixtures, 'migrations');
const currentJournal = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../drizzle/meta/_journal.json',
);

const LEGACY_TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const LEGACY_PASSWORD = 'a password from release 0.1.0';
const UPGRADED_ORGANISATION = 'Leeds Community Healthcare';

let site: ProcessSite;
beforeAll(async () => {
  site = await processSite('upgrade');
});
afterAll(async () => {
  await site.cleanup();
});

type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

/** Builds the 0.1.0 database at the site, and answers a way to query it (and to close it). */
async function baselineDatabase(): Promise<{ query: Query; close: () => Promise<void> }> {
  const data = readFileSync(path.join(fixtures, 'demo-data.sql'), 'utf8');
  if (site.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: site.env.DATABASE_URL, max: 1 });
    await migratePg(drizzlePg(pool), { migrationsFolder: baselineMigrations });
    await pool.query(data);
    // pg_dump's script empties the search path for its session; the pool has one connection.
    await pool.query('set search_path to "$user", public');
    return { query: (text) => pool.query(text), close: () => pool.end() };
  }
  const dir = path.join(site.dataDir, 'db');
  mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  await migratePglite(drizzlePglite(pglite), { migrationsFolder: baselineMigrations });
  await pglite.exec(data);
  await pglite.exec('set search_path to "$user", public');
  return {
    query: async (text) => pglite.query<Record<string, unknown>>(text),
    close: () => pglite.close(),
  };
}

/** The upgraded database, opened after the server stopped. */
async function openUpgraded(): Promise<{ query: Query; close: () => Promise<void> }> {
  if (site.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: site.env.DATABASE_URL, max: 1 });
    return { query: (text) => pool.query(text), close: () => pool.end() };
  }
  const pglite = await PGlite.create(path.join(site.dataDir, 'db'));
  return { query: async (text) => pglite.query<Record<string, unknown>>(text), close: () => pglite.close() };
}

/** Row counts of every table of 0.1.0 (the current code must keep each of them). */
async function counts(query: Query, tables: string[]): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const t of tables)
    result[t] = Number((await query(`select count(*)::int as n from public."${t}"`)).rows[0]!.n);
  return result;
}

describe('upgrade from release 0.1.0', () => {
  it('applies every migration since on a 0.1.0 database with demo data, keeping every row and media file, and the app works', async () => {
    const baseline = await baselineDatabase();
    let tables: string[] = [];
    let before: Record<string, number> = {};
    let tabletUuid = '';
    let daysBehind: Record<string, unknown>[] = [];
    const media = new Map<string, string>();
    try {
      tables = (
        await baseline.query(
          "select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
        )
      ).rows.map((r) => String(r.t));
      // An admin as 0.1.0 stored one: the TOTP secret in plain base32 (its session key, plain in
      // server_secrets, comes with the demo data). Both must be sealed or gone after the upgrade.
      await baseline.query(
        `insert into admin_users (user_name, password_hash, totp_secret, role) values ('legacy.admin', '${await hashPassword(LEGACY_PASSWORD)}', '${LEGACY_TOTP}', 'full access')`,
      );
      expect(
        (await baseline.query("select value from server_secrets where name = 'session-jwt'")).rows,
      ).toHaveLength(1);
      before = await counts(baseline.query, tables);
      // 0.1.0 kept days_behind in participants; migration 0009 moves it to participant_adherence.
      daysBehind = (await baseline.query('select participant_id, days_behind from participants order by 1'))
        .rows;
      expect(daysBehind.some((r) => Number(r.days_behind) > 0)).toBe(true);
      expect(before.participants).toBeGreaterThan(0);
      expect(before.videos).toBeGreaterThan(0);
      // The media files the demo's rows point at (videos, thumbnails, posters).
      const keys = (
        await baseline.query(
          'select file_location_path as k from videos union select video_thumbnail_url from videos union select poster_url from videos',
        )
      ).rows
        .map((r) => r.k)
        .filter((k): k is string => typeof k === 'string' && isBlobKey(k));
      expect(keys.length).toBeGreaterThan(0);
      // A tablet given to a participant with a programme: its first call must work after the upgrade.
      tabletUuid = String(
        (
          await baseline.query(
            `select d.uuid from participants p
             join authorized_devices d on d.authorized_device_id = p.authorized_device_id
             join fitness_participation_progress f on f.participant_id = p.participant_id
             order by p.participant_id limit 1`,
          )
        ).rows[0]!.uuid,
      );
      for (const key of keys) {
        const bytes = randomBytes(4096 + media.size);
        const file = path.join(site.dataDir, 'media', key);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, bytes);
        media.set(key, createHash('sha256').update(bytes).digest('hex'));
      }
    } finally {
      await baseline.close();
    }

    // The organisation the instance becomes is named by ORGANISATION_NAME, read by the migration.
    const server = await startServerProcess({ ...site.env, ORGANISATION_NAME: UPGRADED_ORGANISATION });
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // Sign in as a new admin, read the grid, and make the tablet's first call.
      const created = await runCli(
        [
          'create-admin',
          '--username',
          'upgrade.admin',
          '--password',
          'correct horse',
          '--role',
          'full access',
          '--json',
        ],
        site.env,
      );
      expect(created.code, created.stderr).toBe(0);
      const admin = JSON.parse(created.stdout) as { user_name: string; totp_secret: string };
      const login = await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_name: admin.user_name,
          password: 'correct horse',
          mfa_token: totpCode(admin.user_name, admin.totp_secret, new Date()),
        }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      // The admin of 0.1.0 signs in with the authenticator enrolled then.
      const legacy = await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          user_name: 'legacy.admin',
          password: LEGACY_PASSWORD,
          mfa_token: totpCode('legacy.admin', LEGACY_TOTP, new Date()),
        }),
      });
      expect(legacy.status).toBe(200);
      // The full-access admin of 0.1.0 runs the instance now, in its one organisation and site;
      // an admin added since is not a system administrator (the instance had admins already).
      const legacySession = (await legacy.json()) as { session: Record<string, unknown> };
      expect(legacySession.session).toMatchObject({
        role: 'full access',
        system_administrator: true,
        organisation: { name: UPGRADED_ORGANISATION, ods_code: null },
        sites: [{ name: UPGRADED_ORGANISATION }],
        site_ids: [],
      });
      expect(JSON.parse(created.stdout)).toMatchObject({ system_administrator: false });
      const grid = await fetch(`${server.url}/api/participant`, { headers: { cookie } });
      expect(grid.status).toBe(200);
      expect(JSON.stringify(await grid.json())).toContain('participant_id');

      // The follow-up worklist on the upgraded data: behind and slightly behind since the days the
      // programmes' missed videos reached 3 and 1 (worked out by the upgrade), not since the
      // upgrade, and listed only for days that went by without their video.
      const followup = (await (
        await fetch(`${server.url}/api/followup?perPage=500`, { headers: { cookie } })
      ).json()) as {
        data: { reasons: string[]; since: string; since_exact: boolean; days_behind: number }[];
      };
      const behind = followup.data.filter((r) => r.reasons.includes('behind'));
      expect(behind.length).toBeGreaterThan(0);
      const upgradedOn = new Date().toISOString().slice(0, 10);
      for (const row of followup.data.filter((r) => r.reasons.some((x) => x.endsWith('behind')))) {
        expect(row.since_exact).toBe(true);
        expect(row.since < upgradedOn).toBe(true);
      }

      const tablet = await fetch(`${server.url}/uuid/${tabletUuid}`);
      expect(tablet.status).toBe(200);
      const first = (await tablet.json()) as Record<string, unknown>;
      expect(first).toHaveProperty('auth_token');
      expect((first.videos as unknown[]).length).toBeGreaterThan(0);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    // Every migration of this build applied; every row of 0.1.0 still there (the checks above
    // only added an admin, a session, audit records and a device token); every file unchanged.
    const journal = JSON.parse(readFileSync(currentJournal, 'utf8')) as { entries: unknown[] };
    const upgraded = await openUpgraded();
    try {
      const applied = Number(
        (await upgraded.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]!.n,
      );
      expect(applied).toBe(journal.entries.length);
      const after = await counts(upgraded.query, tables);
      const grewByTheChecks = new Set([
        'admin_users',
        'sessions',
        'audit_events',
        'device_tokens',
        'login_throttle',
      ]);
      // Secrets at rest: no TOTP secret in plain, and 0.1.0's plain session key replaced by the
      // sealed key check.
      const secrets = await upgraded.query('select totp_secret from admin_users');
      for (const row of secrets.rows) expect(String(row.totp_secret)).toMatch(/^v1:/);
      expect(JSON.stringify(secrets.rows)).not.toContain(LEGACY_TOTP);
      const stored = await upgraded.query('select name from server_secrets order by name');
      expect(stored.rows.map((r) => r.name)).toEqual(['secrets-key-check']);
      for (const t of tables) {
        // Derived, and folded into one row per class when a migration rebuilds it: checked below.
        if (t === 'participant_tally' || t === 'server_secrets') continue;
        if (grewByTheChecks.has(t)) expect(after[t], t).toBeGreaterThanOrEqual(before[t]!);
        else expect(after[t], t).toBe(before[t]);
      }
      // Every participant's days_behind moved with them (nothing above changes it).
      const moved = await upgraded.query(
        'select participant_id, days_behind from participant_adherence order by 1',
      );
      expect(moved.rows).toEqual(daysBehind);
      // The tally rebuilt or kept by the migrations agrees with the participants, class by class.
      const tally = await upgraded.query(
        `select adherence, with_programme, sum(delta)::int as n from participant_tally
         group by 1, 2 having sum(delta) <> 0 order by 1, 2`,
      );
      const counted = await upgraded.query(
        `select a.adherence, pp.participant_id is not null as with_programme, count(*)::int as n
         from participants p
         join participant_adherence a on a.participant_id = p.participant_id
         left join fitness_participation_progress pp on pp.participant_id = p.participant_id
         group by 1, 2 order by 1, 2`,
      );
      expect(tally.rows).toEqual(counted.rows);
      // The worklist's tally, counted afresh by the upgrade, agrees with its rows: the kept reasons,
      // and the tablets silent and the participants not started by the UTC day of their time (0034).
      const followupTally = await upgraded.query(
        `select reason, coalesce(day::text, '') as day, sum(delta)::int as n from followup_tally
         group by 1, 2 having sum(delta) <> 0 order by 1, 2`,
      );
      const noneKept = `behind_since is null and slightly_since is null and failing_since is null and finished_since is null`;
      const byDay = (reason: string, column: string, only: boolean) =>
        `select '${reason}', ((${column} at time zone 'UTC')::date)::text, count(*)::int from participant_followup
         where ${column} is not null${only ? ` and ${noneKept}` : ''} group by 2`;
      const followupCounted = await upgraded.query(
        `select reason, day, n from (
           select 'behind' as reason, '' as day, count(*) filter (where behind_since is not null)::int as n from participant_followup
           union all select 'listed', '', count(*) filter (where behind_since is not null or slightly_since is not null
             or failing_since is not null or finished_since is not null)::int from participant_followup
           union all select 'programme_finished', '', count(*) filter (where finished_since is not null)::int from participant_followup
           union all select 'reminders_failing', '', count(*) filter (where failing_since is not null)::int from participant_followup
           union all select 'slightly_behind', '', count(*) filter (where slightly_since is not null)::int from participant_followup
           union all ${byDay('tablet_silent', 'silent_from', false)}
           union all ${byDay('tablet_silent_only', 'silent_from', true)}
           union all ${byDay('not_started', 'not_started_from', false)}
           union all ${byDay('not_started_only', 'not_started_from', true)}
         ) c where n <> 0 order by 1, 2`,
      );
      expect(
        followupCounted.rows.some((r) => r.reason === 'tablet_silent' || r.reason === 'not_started'),
      ).toBe(true);
      expect(followupTally.rows).toEqual(followupCounted.rows);
      // One organisation and one site hold everything of 0.1.0.
      const organisation = await upgraded.query('select organisation_id, name from organisations');
      expect(organisation.rows).toEqual([{ organisation_id: 1, name: UPGRADED_ORGANISATION }]);
      const sites = await upgraded.query('select site_id, organisation_id from sites');
      expect(sites.rows).toEqual([{ site_id: 1, organisation_id: 1 }]);
      const elsewhere = await upgraded.query(
        `select (select count(*)::int from participants where site_id <> 1 or organisation_id <> 1)
           + (select count(*)::int from authorized_devices where organisation_id <> 1)
           + (select count(*)::int from fitness_video_sets where organisation_id <> 1 or shared)
           + (select count(*)::int from admin_users where organisation_id <> 1 or cardinality(site_ids) > 0) as n`,
      );
      expect(elsewhere.rows[0]!.n).toBe(0);
      const systemAdministrators = await upgraded.query(
        'select user_name from admin_users where system_administrator order by user_name',
      );
      const fullAccess = await upgraded.query(
        "select user_name from admin_users where role = 'full access' and user_name <> 'upgrade.admin' order by user_name",
      );
      expect(systemAdministrators.rows).toEqual(fullAccess.rows);
    } finally {
      await upgraded.close();
    }
    for (const [key, sha] of media) {
      const bytes = readFileSync(path.join(site.dataDir, 'media', key));
      expect(createHash('sha256').update(bytes).digest('hex'), key).toBe(sha);
    }
    console.info(
      `[ops] upgrade from 0.1.0 (${process.env.TEST_DB}): ${journal.entries.length - 1} migrations applied on ` +
        `${Object.values(before).reduce((a, b) => a + b, 0)} rows in ${tables.length} tables and ${media.size} media files; all kept`,
    );
  }, 300_000);
});
