import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstSite, insertParticipants, setDaysMissed } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { makeProgress, makeVideoSet } from '../../test/programme-factories.js';
import { worklistCounts, worklistPage } from '../modules/followup/worklist.js';
import { dashboardData } from '../modules/dashboard/service.js';
import { ParticipantRepository } from '../modules/participants/repository.js';
import type { Database } from './client.js';
import { participantCounts } from './participant-tally.js';
import { preparedArrays } from './prepared.js';
import { arrayRows, rowsOf } from './rows.js';
import { organisations, participants, sites, ssoConfigurations, ssoEmailDomains } from './schema.js';
import { NoScopeError, instanceScope, withScope, type Scope } from './scope.js';
import { scopedDatabase } from './scoped-database.js';

// The database, not the handler, keeps organisations and sites apart: the participants page's and
// the follow-up worklist's statements carry no condition on the site or organisation at all, and
// run under an admin's transaction settings (db/scope.ts) they return that admin's rows alone.

let t: TestApp;
const place = { a1: [] as number[], a2: [] as number[], b: [] as number[] };
let scopeA1: Scope;
let scopeA: Scope;
let scopeB: Scope;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.ctx.database.db;
  const a = await firstSite(db);
  const [a2] = await db.insert(sites).values({ organisation_id: a.organisation_id, name: 'A2' }).returning();
  const [b] = await db.insert(organisations).values({ name: 'Organisation B', ods_code: 'RLSB' }).returning();
  const [b1] = await db.insert(sites).values({ organisation_id: b!.organisation_id, name: 'B1' }).returning();
  const at = (site: { site_id: number; organisation_id: number }) => ({
    site_id: site.site_id,
    organisation_id: site.organisation_id,
    days_behind: 4,
  });
  place.a1 = await insertParticipants(t.ctx, [at(a), at(a), at(a)]);
  place.a2 = await insertParticipants(t.ctx, [at(a2!), at(a2!)]);
  place.b = await insertParticipants(t.ctx, [at(b1!), at(b1!)]);
  const set = await makeVideoSet(db);
  for (const id of [...place.a1, ...place.a2, ...place.b])
    await makeProgress(db, id, set.fitness_video_set_id, { started_date: '2026-01-05' });
  // Four days gone by without their video: behind, on the worklist.
  await setDaysMissed(db, [...place.a1, ...place.a2, ...place.b], 4, '2026-02-01');
  scopeA1 = {
    kind: 'staff',
    organisationId: a.organisation_id,
    siteIds: [a.site_id],
    everySite: false,
    systemAdministrator: false,
  };
  scopeA = {
    kind: 'staff',
    organisationId: a.organisation_id,
    siteIds: [a.site_id, a2!.site_id],
    everySite: true,
    systemAdministrator: true,
  };
  scopeB = {
    kind: 'staff',
    organisationId: b!.organisation_id,
    siteIds: [b1!.site_id],
    everySite: true,
    systemAdministrator: false,
  };
});
afterAll(() => t.close());

/**
 * Runs `work` on the application's database in `scope`, exactly as a request's handler does (the
 * staff role and the scope's settings, for each statement's transaction), or with no scope on the
 * tables' owner's: what it reads is what the policies let through, whatever the statement asks.
 */
async function asScope<T>(scope: Scope | null, work: (db: Database) => Promise<T>): Promise<T> {
  return scope ? withScope(scope, () => work(t.ctx.db)) : work(t.ctx.database.db);
}

const pageIds = (db: Database) =>
  new ParticipantRepository(db)
    .page({
      filter: { status: 'all', searchIdentifiable: true },
      order: { sort: 'participant_id', order: 'asc' },
      limit: 100,
      offset: 0,
    })
    .then(({ rows }) => rows.map((r) => r.participant_id));

const worklistClock = {
  now: new Date('2026-02-01T12:00:00Z'),
  silentDays: 3,
  today: '2026-02-01',
  timeZone: 'Europe/London',
};

/** The worklist's page, every reason, by the statement the route runs; its total must agree. */
async function worklistIds(db: Database): Promise<number[]> {
  const { rows, total } = await worklistPage(db, worklistClock, {
    limit: 100,
    offset: 0,
    identifiable: true,
  });
  expect(total).toBe(rows.length);
  return rows.map((row) => row.participant_id).sort((x, y) => x - y);
}

describe('row-level security', () => {
  it("gives the participants page's statement, with no condition of its own on sites, only the admin's rows", async () => {
    const everyone = [...place.a1, ...place.a2, ...place.b];
    // The tables' owner is not held by the policies: the statement itself keeps nobody out.
    expect(await asScope(null, pageIds)).toEqual(expect.arrayContaining(everyone));
    expect(await asScope(scopeA1, pageIds)).toEqual(place.a1);
    expect(await asScope(scopeA, pageIds)).toEqual([...place.a1, ...place.a2]);
    expect(await asScope(scopeB, pageIds)).toEqual(place.b);
  });

  it("gives the worklist's statement only the admin's rows, its total included", async () => {
    expect(await asScope(null, worklistIds)).toEqual(
      expect.arrayContaining([...place.a1, ...place.a2, ...place.b]),
    );
    expect(await asScope(scopeA1, worklistIds)).toEqual(place.a1);
    expect(await asScope(scopeB, worklistIds)).toEqual(place.b);
  });

  it("gives the dashboard's, the grid's and the worklist's counts, each one statement prepared once, each scope's own in turn", async () => {
    // Named statements are prepared on the connection (PGlite's one session) by the first scope to
    // run them and planned once: the policies must still hold each later run to its own scope.
    const figures = (scope: Scope) =>
      withScope(scope, async () => {
        const data = await dashboardData(t.ctx);
        const { all } = await participantCounts(t.ctx.db);
        const progress = data.participantsProgress;
        return {
          dashboard: data.participantsCount.counted,
          withProgramme: progress.onTrack + progress.slightlyBehind + progress.behind,
          grid: all[0] + all[1] + all[2],
          // Every one of them is four days behind: on the worklist.
          worklist: (await worklistCounts(t.ctx.db, worklistClock)).total,
        };
      });
    const counted = (n: number) => ({ dashboard: n, withProgramme: n, grid: n, worklist: n });
    for (let round = 0; round < 2; round += 1) {
      expect(await figures(scopeA1)).toEqual(counted(place.a1.length));
      expect(await figures(scopeA)).toEqual(counted(place.a1.length + place.a2.length));
      expect(await figures(scopeB)).toEqual(counted(place.b.length));
    }
  });

  it('refuses a statement with no scope, before it is sent', async () => {
    await expect(t.ctx.db.select().from(participants)).rejects.toMatchObject({
      cause: expect.any(NoScopeError) as unknown,
    });
  });

  it("keeps each request's scope to its own statements however their awaits interleave, nested transactions included", async () => {
    const read = (scope: Scope) =>
      withScope(scope, async () => {
        const seen: number[] = [];
        for (let i = 0; i < 5; i++) {
          const rows = await t.ctx.db.select({ id: participants.participant_id }).from(participants);
          seen.push(...rows.map((r) => r.id));
          await new Promise((resolve) => setImmediate(resolve));
          // A savepoint inside a transaction: still the request's scope.
          const nested = await t.ctx.db.transaction((tx) =>
            tx.transaction((inner) => inner.select({ id: participants.participant_id }).from(participants)),
          );
          seen.push(...nested.map((r) => r.id));
        }
        return new Set(seen);
      });
    const results = await Promise.all([read(scopeA1), read(scopeB), read(scopeA1), read(scopeB)]);
    expect([...results[0]].sort((x, y) => x - y)).toEqual(place.a1);
    expect([...results[1]].sort((x, y) => x - y)).toEqual(place.b);
    expect(results[2]).toEqual(results[0]);
    expect(results[3]).toEqual(results[1]);
    // Nothing of a scope is left on the connection (embedded: the one session) once its transaction ends.
    const [left] = rowsOf<{ sites: string | null; role: string }>(
      await t.ctx.database.db.execute(
        sql`select nullif(current_setting('pathway.sites', true), '') as sites, current_user as role`,
      ),
    );
    expect(left!.sites).toBeNull();
    expect(left!.role).not.toBe('pathway_staff');
  });

  it("runs the application's statements as a role that owns nothing and is not above the policies", async () => {
    const [who] = rowsOf<{ role: string; owner: boolean; bypass: boolean }>(
      await withScope(instanceScope('test'), () =>
        t.ctx.db.execute(sql`
          select current_user as role,
            exists (select 1 from pg_tables where tableowner = current_user) as owner,
            (select rolbypassrls or rolsuper from pg_roles where rolname = current_user) as bypass`),
      ),
    );
    expect(who).toEqual({ role: 'pathway_staff', owner: false, bypass: false });
    // Every table with a participant's, an organisation's or a site's rows has its policies on.
    const unprotected = rowsOf<{ table: string }>(
      await t.ctx.database.db.execute(sql`
        select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity
        order by 1`),
    ).map((r) => r.table);
    // The instance's own: the daily check's runs, rate limits, sealed secrets (no staff grant), the
    // catalogue of outcome measures (shared by every organisation, as a shared video set) and the
    // programme's time zone; single sign-on's flows and its providers' logout tokens, read before
    // anyone is known.
    expect(unprotected).toEqual([
      'adherence_runs',
      'outcome_measures',
      'programme_settings',
      'rate_limit_counters',
      'server_secrets',
      'sso_flows',
      'sso_logout_tokens',
    ]);
    const participantOf = await withScope(scopeB, () =>
      t.ctx.db.select().from(participants).where(eq(participants.participant_id, place.a1[0]!)),
    );
    expect(participantOf).toEqual([]);
  });

  it("keeps an organisation's single sign-on settings and email domains from another's admins", async () => {
    const owner = t.ctx.database.db;
    const provider = (organisationId: number) => ({
      organisation_id: organisationId,
      issuer: `https://idp.example/${organisationId}`,
      client_id: 'pathway',
      client_auth: 'client_secret_basic',
      role_claim: 'roles',
      role_map: { lead: 'full access' },
    });
    const a = scopeA1.kind === 'staff' ? scopeA1.organisationId : 0;
    const b = scopeB.kind === 'staff' ? scopeB.organisationId : 0;
    await owner.insert(ssoConfigurations).values([provider(a), provider(b)]);
    await owner.insert(ssoEmailDomains).values([
      { domain: 'a.example', organisation_id: a },
      { domain: 'b.example', organisation_id: b },
    ]);
    const read = async (scope: Scope) =>
      withScope(scope, async () => ({
        providers: (await t.ctx.db.select().from(ssoConfigurations)).map((row) => row.organisation_id),
        domains: (await t.ctx.db.select().from(ssoEmailDomains)).map((row) => row.domain),
      }));
    expect(await read(scopeA1)).toEqual({ providers: [a], domains: ['a.example'] });
    expect(await read(scopeB)).toEqual({ providers: [b], domains: ['b.example'] });
    // Another organisation's settings are not changed by a statement that names them.
    const changed = await withScope(scopeB, () =>
      t.ctx.db
        .update(ssoConfigurations)
        .set({ client_id: 'taken' })
        .where(eq(ssoConfigurations.organisation_id, a))
        .returning(),
    );
    expect(changed).toEqual([]);
    // Sign-in reads them before anyone is known, in the instance's scope; a system administrator
    // manages every organisation's.
    const everyone = (await read(instanceScope('sign-in'))).providers.sort((x, y) => x - y);
    expect(everyone).toEqual([a, b].sort((x, y) => x - y));
    expect((await read(scopeA)).providers.sort((x, y) => x - y)).toEqual([a, b].sort((x, y) => x - y));
  });
});

/**
 * The application's database on one connection (PostgreSQL: a pool of one; embedded: the one
 * session there is), with the tables' owner's on the same connection: what a statement leaves
 * behind on it is what the next one finds.
 */
async function oneConnection(): Promise<{ db: Database; owner: Database; end: () => Promise<void> }> {
  if (!t.ctx.database.pool) return { db: t.ctx.db, owner: t.ctx.database.db, end: async () => {} };
  const pool = new pg.Pool({ connectionString: t.ctx.database.pool.options.connectionString, max: 1 });
  const { drizzle } = await import('drizzle-orm/node-postgres');
  return { db: scopedDatabase({ pool }), owner: drizzle(pool) as unknown as Database, end: () => pool.end() };
}

/** What a connection holds of a scope outside any transaction: nothing, and not the staff role. */
async function leftOn(owner: Database) {
  const [left] = rowsOf<{ sites: string | null; scope: string | null; role: string }>(
    await owner.execute(
      sql`select nullif(current_setting('pathway.sites', true), '') as sites,
        nullif(current_setting('pathway.scope', true), '') as scope, current_user as role`,
    ),
  );
  return left;
}

describe('one round trip per statement, the scope ahead of it', () => {
  it("keeps each scope's statements to its rows when they take turns on one connection", async () => {
    const { db, owner, end } = await oneConnection();
    try {
      const ids = (scope: Scope) =>
        withScope(scope, async () => {
          const rows = await db.select({ id: participants.participant_id }).from(participants);
          return rows.map((r) => r.id).sort((x, y) => x - y);
        });
      // Queued on the same connection, alternately: each statement sets its own scope.
      const scopes = [scopeA1, scopeB, scopeA, scopeB, scopeA1, scopeA];
      const seen = await Promise.all([...scopes, ...scopes].map(ids));
      const expected = new Map<Scope, number[]>([
        [scopeA1, place.a1],
        [scopeB, place.b],
        [scopeA, [...place.a1, ...place.a2]],
      ]);
      expect(seen).toEqual([...scopes, ...scopes].map((scope) => expected.get(scope)));
      // A statement without parameters goes as a simple query, with the same scope ahead of it.
      const counted = await withScope(scopeB, () =>
        db.execute(sql.raw('select count(*)::int as n from participants')),
      );
      expect(rowsOf<{ n: number }>(counted)).toEqual([{ n: place.b.length }]);
      expect(await leftOn(owner)).toEqual({
        sites: null,
        scope: null,
        role: expect.not.stringMatching(/^pathway_staff$/) as unknown,
      });
    } finally {
      await end();
    }
  });

  it('leaves nothing of the scope on the connection when a statement fails, and the connection goes on', async () => {
    const { db, owner, end } = await oneConnection();
    try {
      const inB = <T>(work: () => Promise<T>) => withScope(scopeB, work);
      // Fails as it runs, fails to parse, and a value the driver cannot write (refused before it is sent).
      await expect(inB(() => db.execute(sql`select 1 / ${0}::int`))).rejects.toThrow();
      expect(await leftOn(owner)).toMatchObject({ sites: null, scope: null });
      await expect(inB(() => db.execute(sql`select no_such_column from participants`))).rejects.toThrow();
      expect(await leftOn(owner)).toMatchObject({ sites: null, scope: null });
      const unwritable = {
        toPostgres() {
          throw new Error('cannot be written');
        },
      };
      await expect(inB(() => db.execute(sql`select ${unwritable}::text`))).rejects.toThrow();
      expect(await leftOn(owner)).toMatchObject({ sites: null, scope: null });
      expect((await leftOn(owner))!.role).not.toBe('pathway_staff');
      // The same connection answers the next statement, in its own scope.
      const rows = await withScope(scopeA1, () =>
        db.select({ id: participants.participant_id }).from(participants),
      );
      expect(rows.map((r) => r.id).sort((x, y) => x - y)).toEqual(place.a1);
    } finally {
      await end();
    }
  });

  it('runs a named statement, prepared once on the connection, with the scope of each run', async () => {
    const { db, owner, end } = await oneConnection();
    try {
      const ids = (scope: Scope) =>
        withScope(scope, async () =>
          (
            await preparedArrays(db, 'rls.test.ids', 'select participant_id from participants order by 1', [])
          ).map(([id]) => id),
        );
      const scopes = [scopeA1, scopeB, scopeA, scopeA1, scopeB];
      expect(await Promise.all(scopes.map(ids))).toEqual([
        place.a1,
        place.b,
        [...place.a1, ...place.a2],
        place.a1,
        place.b,
      ]);
      // A named statement that does not parse is not taken for prepared: refused the same way again.
      const broken = () =>
        withScope(scopeA, () =>
          preparedArrays(db, 'rls.test.broken', 'select no_such_column from participants', []),
        );
      await expect(broken()).rejects.toThrow(/no_such_column/);
      await expect(broken()).rejects.toThrow(/no_such_column/);
      expect(await leftOn(owner)).toMatchObject({ sites: null, scope: null });
      expect(await ids(scopeB)).toEqual(place.b);
    } finally {
      await end();
    }
  });

  it('plans a named statement that asks for it with its generic plan, that statement alone, in its scope', async () => {
    const { db, owner, end } = await oneConnection();
    try {
      const mode = (plan?: 'generic') =>
        withScope(scopeB, () =>
          arrayRows(
            db,
            {
              sql: "select current_setting('plan_cache_mode'), (select count(*)::int from participants where participant_id > $1::int)",
              params: [0],
            },
            plan ? 'rls.test.generic' : 'rls.test.configured',
            plan,
          ),
        );
      const configured = rowsOf<{ mode: string }>(
        await owner.execute(sql`select current_setting('plan_cache_mode') as mode`),
      )[0]!.mode;
      // The policies hold under either plan: the scope's rows alone.
      expect(await mode('generic')).toEqual([['force_generic_plan', place.b.length]]);
      expect(await mode()).toEqual([[configured, place.b.length]]);
      expect(await mode('generic')).toEqual([['force_generic_plan', place.b.length]]);
      // Nothing of it is left on the connection for the next statement.
      expect(
        rowsOf<{ mode: string }>(
          await owner.execute(sql`select current_setting('plan_cache_mode') as mode`),
        )[0]!.mode,
      ).toBe(configured);
      expect(await leftOn(owner)).toMatchObject({ sites: null, scope: null });
    } finally {
      await end();
    }
  });

  it('still refuses a statement with no scope on the connection the others used', async () => {
    const { db, end } = await oneConnection();
    try {
      await withScope(scopeA, () => db.select().from(participants));
      await expect(db.select().from(participants)).rejects.toMatchObject({
        cause: expect.any(NoScopeError) as unknown,
      });
    } finally {
      await end();
    }
  });
});
