import { randomBytes } from 'node:crypto';
import { instanceScope, withScope } from '../src/db/scope.js';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { IDENTIFIABLE_FIELDS, type Role } from '@pathway/contract';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { assessmentResults, organisations, participants } from '../src/db/schema.js';
import { ManualClock, systemClock, type Clock } from '../src/lib/clock.js';
import { closeLogs, createLogger } from '../src/logging.js';
import { AdminService } from '../src/modules/admin/service.js';
import { SESSION_COOKIE } from '../src/modules/auth/sessions.js';
import { closeContext, createContext } from '../src/runtime.js';
import { recordSecret } from './security/log-leaks.js';
import { createPostgresTestDatabase, pgliteTemplate, provided } from './test-databases.js';

export { ManualClock };

/** Sign-in limits high enough for tests and load runs whose every request comes from loopback. */
export const TEST_LOGIN_LIMITS = { LOGIN_LIMIT_PER_ADDRESS: '100000', LOGIN_LIMIT_OVERALL: '100000' };

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

/**
 * A fresh database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new database on
 * the server at TEST_DATABASE_URL, dropped afterwards. Both start as a copy of the run's migrated
 * template (database-template.setup.ts) when there is one.
 */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') {
    const handle = await openDatabase({ loadDataDir: pgliteTemplate() });
    return { handle, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const { url, drop } = await createPostgresTestDatabase(adminUrl, 'pathway_test', 'migrated');
  const handle = await openDatabase({ databaseUrl: url, poolSize: 5 });
  return { handle, drop };
}

/** The run's log root (see security/log-scan.setup.ts); undefined outside the server projects. */
export function testLogRoot(): string | undefined {
  return provided('testLogRoot');
}

/**
 * Copies a data directory's logs under the run's log root before the directory is removed, so
 * the scan after the run reads what every server of every file wrote.
 */
export function keepLogs(dataDir: string): void {
  const root = testLogRoot();
  const logs = path.join(dataDir, 'logs');
  if (!root || !existsSync(logs)) return;
  cpSync(logs, path.join(root, path.basename(dataDir)), { recursive: true });
}

export interface TestAppOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Run job handlers in this test process (off by default: most tests only look at what is queued). */
  workers?: boolean;
  /** Told of every route the app adds (see buildApp). */
  onRoute?: (route: RouteOptions) => void;
  /** Serve the console from this directory instead of apps/web/dist. */
  webRoot?: string;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-test-'));
  const secretsKey = randomBytes(32).toString('base64');
  // The key must never reach a log line: the scan after the run looks for it.
  recordSecret(testLogRoot(), secretsKey);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    LOG_TO_STDOUT: 'false',
    // Every test's tablet calls come from one address, many more than a real tablet makes; the
    // limits of calls 1 and 2 are tested on their own (device-api/rate-limit.test.ts) with the defaults.
    DEVICE_RATE_LIMIT_PER_DEVICE: '100000',
    DEVICE_RATE_LIMIT_PER_ADDRESS: '100000',
    // Every inject comes from 127.0.0.1: the sign-in limits are tested where they are set back
    // to their defaults (security/throttling.test.ts), not in every file that signs in.
    ...TEST_LOGIN_LIMITS,
    // A key of its own per app, given directly: no key file is written beside the temporary
    // DATA_DIR (the generated key file is tested in security/secrets-at-rest.test.ts).
    SECRETS_KEY: secretsKey,
    ...options.env,
  });
  const logger = createLogger({ level: 'info', logDir: config.logDir, toStdout: false });
  const { handle, drop } = await freshDatabase();
  const ctx = await createContext(config, logger, { database: handle, clock: options.clock ?? systemClock });
  // Two handlers per queue: a slow job (real ffmpeg on a busy machine) never starves the next one.
  if (options.workers) await ctx.jobs.startWorkers({ workersPerQueue: 2, pollingIntervalSeconds: 1 });
  const app = await buildApp(ctx, { onRoute: options.onRoute, webRoot: options.webRoot });
  await app.ready();
  return {
    app,
    ctx,
    config,
    async close() {
      await rememberParticipantDetails(ctx);
      await app.close();
      await closeContext(ctx);
      closeLogs(logger);
      await drop();
      keepLogs(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Identifiable fields whose values the log scan does not look for: dates of birth would match
 * dates in log lines, every request's line holds the caller's address (a tablet's is its
 * participant's last_ip_address), and the programme is a choice from a fixed list (pad-programme).
 */
const NOT_LOOKED_FOR_IN_LOGS = new Set<string>(['date_of_birth', 'last_ip_address', 'programme_referred_to']);

/**
 * Every participant detail this file's tests stored, whoever made it (factories, API calls, literal
 * bodies), goes to the run's list of values the log scan looks for: the text of every identifiable
 * field of the contract's list but those above. Short values (a two-letter role, an empty note)
 * would match ordinary text.
 */
async function rememberParticipantDetails(ctx: AppContext): Promise<void> {
  const root = testLogRoot();
  if (!root) return;
  const fields = IDENTIFIABLE_FIELDS.filter((field) => !NOT_LOOKED_FOR_IN_LOGS.has(field));
  try {
    // A file that took its database away (fault tests) must still close; a busy machine's slow
    // answer must not skip the values the log scan looks for.
    const rows = await Promise.race([
      ctx.database.db.select().from(participants),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('database did not answer')), 30_000).unref(),
      ),
    ]);
    for (const row of rows) {
      for (const field of fields) {
        const value = (row as Record<string, unknown>)[field];
        if (typeof value === 'string' && value.trim().length >= 6) recordSecret(root, value.trim());
      }
    }
    // Notes on outcome results and the reasons of their amendments: free text that may name someone.
    const texts = await ctx.database.db
      .select({ note: assessmentResults.note, reason: assessmentResults.reason })
      .from(assessmentResults);
    for (const { note, reason } of texts) {
      for (const value of [note, reason])
        if (value && value.trim().length >= 6) recordSecret(root, value.trim());
    }
  } catch {
    // A test that broke the table on purpose has nothing more to remember.
  }
}

let adminCounter = 0;

/**
 * Runs a test's direct call of a service or job (not through a route) as the instance's work: the
 * application's database refuses a statement without a scope (db/scope.ts).
 */
export function asInstance<T>(work: () => Promise<T>): Promise<T> {
  return withScope(instanceScope('test'), work);
}

/** The instance's first organisation (every new database has it): a test admin's unless told. */
async function firstOrganisation(ctx: AppContext): Promise<number> {
  const [row] = await ctx.database.db
    .select({ id: organisations.organisation_id })
    .from(organisations)
    .orderBy(organisations.organisation_id)
    .limit(1);
  return row!.id;
}

export interface TestAdmin {
  admin_user_id: number;
  user_name: string;
  password: string;
  totpSecret: string;
  role: Role;
}

/**
 * An admin made through the real service (argon2 hash, TOTP secret), unique per call: of the
 * instance's first organisation unless told, and a full-access one a system administrator too,
 * as an instance upgraded from before organisations has them.
 */
export async function createAdmin(
  ctx: AppContext,
  role: Role = 'full access',
  overrides: {
    user_name?: string;
    organisation_id?: number;
    site_ids?: number[];
    system_administrator?: boolean;
  } = {},
): Promise<TestAdmin> {
  adminCounter += 1;
  const user_name =
    overrides.user_name ?? `admin${adminCounter}.${randomBytes(3).toString('hex')}@example.org`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  recordSecret(testLogRoot(), password);
  const created = await new AdminService(ctx.database.db, ctx.secrets).create({
    user_name,
    password,
    role,
    first_name: 'Test',
    last_name: `Admin${adminCounter}`,
    organisation_id: overrides.organisation_id ?? (await firstOrganisation(ctx)),
    site_ids: overrides.site_ids ?? [],
    system_administrator: overrides.system_administrator ?? role === 'full access',
  });
  return {
    admin_user_id: created.admin.admin_user_id,
    user_name,
    password,
    totpSecret: created.totpSecret,
    role,
  };
}

/**
 * A signed-in session cookie for an admin of `role`. It skips the TOTP step (each code works
 * once per 30 s, too few for a test suite); the sign-in flow itself is tested through /login.
 */
export async function signedInCookie(
  ctx: AppContext,
  role: Role = 'full access',
  overrides: Parameters<typeof createAdmin>[2] = {},
): Promise<{ cookie: string; admin: TestAdmin }> {
  const admin = await createAdmin(ctx, role, overrides);
  const { token } = await ctx.sessions.start(admin.admin_user_id, role, '127.0.0.1');
  recordSecret(testLogRoot(), token);
  return { cookie: `${SESSION_COOKIE}=${token}`, admin };
}
