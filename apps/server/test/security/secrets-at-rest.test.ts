import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { rowsOf } from '../../src/db/rows.js';
import { adminUsers, serverSecrets } from '../../src/db/schema.js';
import { createLogger } from '../../src/logging.js';
import { hashPassword } from '../../src/modules/auth/passwords.js';
import { openSecretsAtRest } from '../../src/modules/auth/secrets-at-rest.js';
import { sessionSigningKey } from '../../src/modules/auth/sessions.js';
import { newTotpSecret, totpCode } from '../../src/modules/auth/totp.js';
import { createContext } from '../../src/runtime.js';
import { firstSite } from '../factories.js';
import { createAdmin, createTestApp, type TestApp } from '../harness.js';
import { saveAsVideoAndAwaitThumbnail, testVideo } from '../media-helpers.js';
import { processDatabaseEnv, repoRoot, runCli, serverBundle, startServerProcess } from '../process.js';

// Issue 12, secrets at rest: a copy of the database (or of DATA_DIR) must not let anyone compute
// TOTP codes or mint a session cookie; the key lives outside the database, older rows are sealed
// at start, a wrong or missing key stops the start with a message, the key can be rotated, and
// everything under DATA_DIR is private whatever the umask.
const embedded = process.env.TEST_DB !== 'postgres';
const silent = createLogger({ level: 'silent', toStdout: false });
const newKey = () => randomBytes(32).toString('base64');

/** The forms a TOTP secret could take in a column: base32 (both cases), hex and base64 of its bytes. */
function formsOf(base32: string): string[] {
  const bytes = Buffer.from(OTPAuth.Secret.fromBase32(base32).bytes);
  return [
    base32,
    base32.toLowerCase(),
    bytes.toString('hex'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
  ];
}

function claimsOf(cookie: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
}

describe('secrets in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = (user_name: string, password: string, secret: string, at = new Date()) =>
    t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { user_name, password, mfa_token: totpCode(user_name, secret, at) },
    });
  const sessionWith = (token: string) =>
    t.app.inject({ url: '/api/session', headers: { cookie: `jwt=${token}` } });

  /** Every row of every table of ours (and the migrations' bookkeeping), as text. */
  async function everyRowAsText(): Promise<string[]> {
    const tables = rowsOf<{ s: string; t: string }>(
      await t.ctx.database.db.execute(
        sql`select table_schema as s, table_name as t from information_schema.tables where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle', 'pgboss')`,
      ),
    );
    const rows: string[] = [];
    for (const { s, t: table } of tables) {
      const found = rowsOf<{ r: string }>(
        await t.ctx.database.db.execute(
          sql`select (x.*)::text as r from ${sql.identifier(s)}.${sql.identifier(table)} x`,
        ),
      );
      rows.push(...found.map((r) => r.r));
    }
    return rows;
  }

  it('a copy of every row holds no TOTP secret in any form and no key that signs a session cookie', async () => {
    const admins = [
      await createAdmin(t.ctx, 'full access'),
      await createAdmin(t.ctx, 'basic access'),
      await createAdmin(t.ctx, 'full access'),
    ];
    const signIn = await login(admins[0]!.user_name, admins[0]!.password, admins[0]!.totpSecret);
    expect(signIn.statusCode).toBe(200);
    const token = signIn.cookies.find((c) => c.name === 'jwt')!.value;
    expect((await sessionWith(token)).statusCode).toBe(200);

    const rows = await everyRowAsText();
    const all = rows.join('\n');
    // The copy does hold the admins (the search reads the right rows)...
    for (const admin of admins) expect(all).toContain(admin.user_name);
    // ...but none of their TOTP secrets, in any encoding.
    for (const admin of admins) {
      for (const form of formsOf(admin.totpSecret))
        expect(all, `${admin.user_name}: ${form}`).not.toContain(form);
    }
    const stored = await t.ctx.database.db.select({ totp_secret: adminUsers.totp_secret }).from(adminUsers);
    for (const row of stored) expect(row.totp_secret).toMatch(/^v1:[\w-]{8}:[\w-]+:[\w-]+:[\w-]+$/);

    // A cookie signed with anything server_secrets holds (each value, and each part of it as a
    // key) is refused; the same claims signed with the server's real key pass, so the forgery is
    // refused for its key alone.
    const claims = claimsOf(token);
    const forge = (key: Uint8Array) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await sessionWith(await forge(sessionSigningKey(undefined, t.ctx.secrets)))).statusCode).toBe(
      200,
    );
    const secrets = await t.ctx.database.db.select().from(serverSecrets);
    expect(secrets.map((s) => s.name)).toEqual(['secrets-key-check']);
    const candidates: Uint8Array[] = [];
    for (const row of secrets) {
      candidates.push(new TextEncoder().encode(row.value));
      for (const part of row.value.split(':')) {
        candidates.push(new TextEncoder().encode(part), new Uint8Array(Buffer.from(part, 'base64url')));
      }
    }
    for (const key of candidates.filter((k) => k.length > 0)) {
      expect((await sessionWith(await forge(key))).statusCode).toBe(401);
    }
  });

  it("seals an older release's plain TOTP secrets and deletes its plain session key at start; sign-in still works; a second start changes nothing", async () => {
    const plainSecret = newTotpSecret();
    const password = `plain-${randomBytes(8).toString('hex')}`;
    const user_name = `plain.${randomBytes(3).toString('hex')}@example.org`;
    // As 0.1.0 wrote them.
    await t.ctx.database.db.insert(adminUsers).values({
      user_name,
      password_hash: await hashPassword(password),
      totp_secret: plainSecret,
      role: 'full access',
      organisation_id: (await firstSite(t.ctx.database.db)).organisation_id,
    });
    await t.ctx.database.db
      .insert(serverSecrets)
      .values({ name: 'session-jwt', value: randomBytes(48).toString('base64url') });

    const first = await openSecretsAtRest(t.ctx.database.db, t.config.secretsKey);
    expect(first).toMatchObject({ sealed: 1, plainSessionKeyRemoved: true, keyCreated: false });
    expect(first.secrets.keyId).toBe(t.ctx.secrets.keyId);
    const [row] = await t.ctx.database.db
      .select()
      .from(adminUsers)
      .where(eq(adminUsers.user_name, user_name));
    expect(row!.totp_secret.startsWith(`v1:${t.ctx.secrets.keyId}:`)).toBe(true);
    expect(row!.totp_secret).not.toContain(plainSecret);
    expect(
      await t.ctx.database.db.select().from(serverSecrets).where(eq(serverSecrets.name, 'session-jwt')),
    ).toEqual([]);

    expect((await login(user_name, password, plainSecret)).statusCode).toBe(200);

    const again = await openSecretsAtRest(t.ctx.database.db, t.config.secretsKey);
    expect(again).toMatchObject({ sealed: 0, plainSessionKeyRemoved: false });
    const [unchanged] = await t.ctx.database.db
      .select()
      .from(adminUsers)
      .where(eq(adminUsers.user_name, user_name));
    expect(unchanged!.totp_secret).toBe(row!.totp_secret);
  });

  it('two instances starting at once seal each plain secret exactly once', async () => {
    const plain = Array.from({ length: 6 }, () => newTotpSecret());
    const hash = await hashPassword(`x-${randomBytes(8).toString('hex')}`);
    const names = plain.map(() => `race.${randomBytes(4).toString('hex')}@example.org`);
    const { organisation_id } = await firstSite(t.ctx.database.db);
    await t.ctx.database.db.insert(adminUsers).values(
      plain.map((totp_secret, i) => ({
        user_name: names[i]!,
        password_hash: hash,
        totp_secret,
        organisation_id,
      })),
    );
    // On PostgreSQL, a second connection pool to the same database, as a second instance has.
    const url = (t.ctx.database.pool?.options as { connectionString?: string } | undefined)?.connectionString;
    const second = url ? await openDatabase({ databaseUrl: url, poolSize: 2 }) : t.ctx.database;
    try {
      const results = await Promise.all([
        openSecretsAtRest(t.ctx.database.db, t.config.secretsKey),
        openSecretsAtRest(second.db, t.config.secretsKey),
      ]);
      expect(results[0].sealed + results[1].sealed).toBe(plain.length);
    } finally {
      if (second !== t.ctx.database) await second.close();
    }
    const rows = await t.ctx.database.db.select().from(adminUsers);
    for (const [i, name] of names.entries()) {
      const found = rows.find((r) => r.user_name === name)!;
      expect(t.ctx.secrets.open(found.totp_secret, 'admin_users.totp_secret')).toBe(plain[i]);
    }
  });

  it('a wrong key, a tampered secret or a missing key file stops the start with a message naming the setting, and changes nothing', async () => {
    await createAdmin(t.ctx, 'basic access');
    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.database.db.select().from(adminUsers).orderBy(adminUsers.admin_user_id),
        await t.ctx.database.db.select().from(serverSecrets),
      ]);
    const before = await snapshot();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-wrong-key-'));
    const startWith = (env: Record<string, string>) =>
      createContext(loadConfig({ DATA_DIR: path.join(dir, 'data'), ...env }), silent, {
        database: t.ctx.database,
      });
    try {
      await expect(startWith({ SECRETS_KEY: newKey() })).rejects.toThrow(
        /^The secrets key from SECRETS_KEY \(key id [\w-]{8}\) is not the key this database's secrets are sealed with \(key id [\w-]{8}, found in server_secrets\.secrets-key-check\)\. Set SECRETS_KEY or SECRETS_KEY_FILE to that key/,
      );

      const keyFile = path.join(dir, 'other.key');
      writeFileSync(keyFile, newKey());
      await expect(startWith({ SECRETS_KEY_FILE: keyFile })).rejects.toThrow(
        `The secrets key from SECRETS_KEY_FILE (${keyFile})`,
      );
      await expect(startWith({ SECRETS_KEY_FILE: path.join(dir, 'absent.key') })).rejects.toThrow(
        `SECRETS_KEY_FILE: the key file ${path.join(dir, 'absent.key')} does not exist`,
      );
      writeFileSync(keyFile, 'not a key\n');
      await expect(startWith({ SECRETS_KEY_FILE: keyFile })).rejects.toThrow(
        /does not hold a key \(32 random bytes/,
      );

      // Embedded default: the database has sealed secrets, the key file beside DATA_DIR is gone.
      const defaultFile = `${path.join(dir, 'data')}.secrets-key`;
      await expect(startWith({})).rejects.toThrow(
        new RegExp(
          `^This database holds secrets sealed with secrets key ${t.ctx.secrets.keyId}, but there is no key: the key file ${defaultFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*does not exist\\..*set SECRETS_KEY or SECRETS_KEY_FILE to that key`,
        ),
      );
      expect(existsSync(defaultFile)).toBe(false);

      // The right key, but one stored secret altered: named, and nothing sealed or changed.
      const [victim] = await t.ctx.database.db
        .select()
        .from(adminUsers)
        .orderBy(adminUsers.admin_user_id)
        .limit(1);
      const parts = victim!.totp_secret.split(':');
      const ct = Buffer.from(parts[4]!, 'base64url');
      ct[0] = ct[0]! ^ 1;
      parts[4] = ct.toString('base64url');
      await t.ctx.database.db
        .update(adminUsers)
        .set({ totp_secret: parts.join(':') })
        .where(eq(adminUsers.admin_user_id, victim!.admin_user_id));
      const rightKey = { SECRETS_KEY: t.config.secretsKey.kind === 'env' ? t.config.secretsKey.text : '' };
      await expect(startWith(rightKey)).rejects.toThrow(
        `A secret in admin_users.totp_secret of admin ${victim!.admin_user_id} does not open with the secrets key from SECRETS_KEY`,
      );
      await t.ctx.database.db
        .update(adminUsers)
        .set({ totp_secret: victim!.totp_secret })
        .where(eq(adminUsers.admin_user_id, victim!.admin_user_id));
      expect(await snapshot()).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('configuration: PostgreSQL needs a shared key; a key inside DATA_DIR, a malformed key or both settings are refused', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db.example/pathway' })).toThrow(
      /DATABASE_URL is set but neither SECRETS_KEY nor SECRETS_KEY_FILE is: every instance sharing the database must use the same secrets key/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db.example/pathway', SECRETS_KEY: newKey() }).secretsKey.kind,
    ).toBe('env');
    expect(() => loadConfig({ DATA_DIR: '/srv/pathway', SECRETS_KEY_FILE: '/srv/pathway/key' })).toThrow(
      'SECRETS_KEY_FILE (/srv/pathway/key) is inside DATA_DIR',
    );
    const malformed = 'this-is-not-a-key-0123456789';
    let message = '';
    try {
      loadConfig({ SECRETS_KEY: malformed });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('SECRETS_KEY: must be 32 random bytes');
    expect(message).not.toContain(malformed);
    expect(() => loadConfig({ SECRETS_KEY: newKey(), SECRETS_KEY_FILE: '/etc/pathway.key' })).toThrow(
      'SECRETS_KEY and SECRETS_KEY_FILE are both set',
    );
    expect(loadConfig({ DATA_DIR: '/srv/pathway' }).secretsKey).toEqual({
      kind: 'default-file',
      path: '/srv/pathway.secrets-key',
    });
    // 64 hex characters are a key too.
    expect(loadConfig({ SECRETS_KEY: randomBytes(32).toString('hex') }).secretsKey.kind).toBe('env');
  });
});

interface CreatedAdmin {
  user_name: string;
  totp_secret: string;
}
const PASSWORD = 'a long rotation passphrase';

async function cliAdmin(env: Record<string, string>, user: string): Promise<CreatedAdmin> {
  const created = await runCli(
    ['create-admin', '--username', user, '--password', PASSWORD, '--role', 'full access', '--json'],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  return JSON.parse(created.stdout) as CreatedAdmin;
}

async function signIn(url: string, admin: CreatedAdmin, at = new Date()) {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_name: admin.user_name,
      password: PASSWORD,
      mfa_token: totpCode(admin.user_name, admin.totp_secret, at),
    }),
  });
  return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
}

/** Every entry under `root` whose mode is not 0700 (directories) or 0600 (files). */
function notPrivate(root: string): string[] {
  const wrong: string[] = [];
  const visit = (entry: string) => {
    const stats = lstatSync(entry);
    const mode = stats.mode & 0o777;
    if (stats.isDirectory()) {
      if (mode !== 0o700) wrong.push(`${path.relative(root, entry) || '.'} ${mode.toString(8)}`);
      for (const name of readdirSync(entry)) visit(path.join(entry, name));
    } else if (mode !== 0o600) {
      wrong.push(`${path.relative(root, entry)} ${mode.toString(8)}`);
    }
  };
  visit(root);
  return wrong;
}

function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The real server (main.ts) started through sh with umask 000, as a careless service manager
 * might: sh sets the umask and then becomes node (exec), so the child is the server itself.
 */
function startWithUmask000(env: Record<string, string>) {
  const child = spawn('/bin/sh', ['-c', 'umask 000; exec "$0" "$@"', process.execPath, serverBundle], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_TO_STDOUT: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<{ url: string; output: () => string; stop: () => Promise<number | null> }>(
    (resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 300_000);
      void exited.then((code) => reject(new Error(`server exited with ${code}:\n${out}`)));
      child.stdout.on('data', () => {
        const port = /"port":(\d+),"storage"/.exec(out)?.[1];
        if (!port) return;
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${port}`,
          output: () => out,
          stop: () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      });
    },
  );
}

describe('the real server', () => {
  let work: string;
  const dropDatabases: (() => Promise<void>)[] = [];
  beforeAll(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'pathway-secrets-'));
  });
  afterAll(async () => {
    for (const drop of dropDatabases) await drop();
    rmSync(work, { recursive: true, force: true });
  });

  async function site(name: string): Promise<{ dataDir: string; env: Record<string, string> }> {
    const database = await processDatabaseEnv();
    dropDatabases.push(database.drop);
    const dataDir = path.join(work, name);
    return { dataDir, env: { DATA_DIR: dataDir, LOGIN_LIMIT_PER_ADDRESS: '100000', ...database.env } };
  }

  it('under umask 000, everything under DATA_DIR is 0700/0600 after a sign-in, log lines and a video with its thumbnail; an open DATA_DIR is tightened; a copy of its files holds no TOTP secret', async () => {
    const { dataDir, env } = await site('modes');
    // DATA_DIR as an earlier release left it under umask 022: open to everyone.
    mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
    mkdirSync(path.join(dataDir, 'media', 'thumbs'), { recursive: true });
    writeFileSync(path.join(dataDir, 'logs', 'pathway-2020-01-01.log'), '{}\n');
    writeFileSync(path.join(dataDir, 'media', 'thumbs', 'old.jpg'), 'jpeg');
    for (const dir of [
      dataDir,
      path.join(dataDir, 'logs'),
      path.join(dataDir, 'media'),
      path.join(dataDir, 'media', 'thumbs'),
    ])
      chmodSync(dir, 0o755);
    chmodSync(path.join(dataDir, 'logs', 'pathway-2020-01-01.log'), 0o644);
    chmodSync(path.join(dataDir, 'media', 'thumbs', 'old.jpg'), 0o644);

    const server = await startWithUmask000(env);
    let admin: CreatedAdmin;
    try {
      expect(server.output()).toContain('DATA_DIR was readable by other users');
      admin = await cliAdmin(env, 'modes.admin');
      const { status, cookie } = await signIn(server.url, admin);
      expect(status).toBe(200);
      // A video through the resumable upload, saved so the thumbnail job runs (real ffmpeg).
      const bytes = testVideo();
      const start = await fetch(`${server.url}/companion`, {
        method: 'POST',
        headers: { 'tus-resumable': '1.0.0', cookie, 'upload-length': String(bytes.length) },
      });
      expect(start.status).toBe(201);
      const patch = await fetch(`${server.url}${new URL(start.headers.get('location')!).pathname}`, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          cookie,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: new Uint8Array(bytes),
      });
      expect(patch.status).toBe(200);
      const { location } = (await patch.json()) as { location: string };
      const thumbnailUrl = await saveAsVideoAndAwaitThumbnail(server.url, cookie, location, {
        set: 'Modes',
        title: 'Modes',
        description: 'File modes',
      });
      expect(thumbnailUrl).toMatch(/\/media\/thumbs\/.+\.jpg$/);
    } finally {
      expect(await server.stop(), server.output().slice(-4000)).toBe(0);
    }

    const files = filesUnder(dataDir);
    expect(files.some((f) => f.includes(`${path.sep}thumbs${path.sep}`) && !f.endsWith('old.jpg'))).toBe(
      true,
    );
    expect(files.some((f) => f.includes(`${path.sep}uploads${path.sep}`))).toBe(true);
    expect(
      files.some((f) => /pathway-\d{4}-\d{2}-\d{2}\.log$/.test(f) && !f.endsWith('2020-01-01.log')),
    ).toBe(true);
    expect(notPrivate(dataDir)).toEqual([]);
    if (embedded) {
      const keyFile = `${dataDir}.secrets-key`;
      expect(lstatSync(keyFile).mode & 0o777).toBe(0o600);
      // A hot copy of DATA_DIR: the database's own files hold the admin's user name, not the secret.
      const bytes = Buffer.concat(filesUnder(path.join(dataDir, 'db')).map((f) => readFileSync(f)));
      expect(bytes.includes(Buffer.from(admin!.user_name))).toBe(true);
      for (const form of formsOf(admin!.totp_secret))
        expect(bytes.includes(Buffer.from(form)), form).toBe(false);
    }
    console.info(
      `[security] DATA_DIR under umask 000: ${files.length} files, all 0600, every directory 0700`,
    );
  }, 300_000);

  it('rotate-secrets-key re-seals every secret under a new key; sign-in works with the new key and not the old, and old cookies end', async () => {
    const { dataDir, env } = await site('rotate');
    const admin = await cliAdmin(env, 'rotate.admin');
    let server = await startServerProcess(env);
    let oldCookie: string;
    try {
      const first = await signIn(server.url, admin);
      expect(first.status).toBe(200);
      oldCookie = first.cookie;
      if (embedded) {
        const refused = await runCli(['rotate-secrets-key'], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('rotate-secrets-key does not run while the server runs');
        expect(refused.stderr).toContain('stop it, run the command, then start the server again');
      }
    } finally {
      expect(await server.stop(), server.output().slice(-4000)).toBe(0);
    }

    let newEnv: Record<string, string>;
    let oldEnv: Record<string, string>;
    if (embedded) {
      const keyFile = `${dataDir}.secrets-key`;
      const oldKey = readFileSync(keyFile, 'utf8');
      const rotated = await runCli(['rotate-secrets-key', '--json'], env);
      expect(rotated.code, rotated.stderr).toBe(0);
      const result = JSON.parse(rotated.stdout) as Record<string, unknown>;
      expect(result).toMatchObject({ totp_secrets: 1, key_file: keyFile });
      expect(result.key_id).not.toBe(result.previous_key_id);
      expect(readFileSync(keyFile, 'utf8')).not.toBe(oldKey);
      expect(lstatSync(keyFile).mode & 0o777).toBe(0o600);
      expect(existsSync(`${keyFile}.new`)).toBe(false);
      newEnv = env;
      oldEnv = { ...env, SECRETS_KEY: oldKey.trim() };

      // A crash between the commit and the key file's rename: the next start finishes it.
      const newKeyText = readFileSync(keyFile, 'utf8');
      writeFileSync(`${keyFile}.new`, newKeyText, { mode: 0o600 });
      writeFileSync(keyFile, oldKey, { mode: 0o600 });
      server = await startServerProcess(env);
      expect(await server.stop(), server.output().slice(-4000)).toBe(0);
      expect(readFileSync(keyFile, 'utf8')).toBe(newKeyText);
      expect(existsSync(`${keyFile}.new`)).toBe(false);
    } else {
      const without = await runCli(['rotate-secrets-key'], env);
      expect(without.code).toBe(1);
      expect(without.stderr).toContain('give --new-key-file <file>');
      const newKeyFile = path.join(work, 'rotated.key');
      const rotated = await runCli(['rotate-secrets-key', '--new-key-file', newKeyFile], env);
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stdout).toContain(`set SECRETS_KEY_FILE=${newKeyFile}`);
      expect(lstatSync(newKeyFile).mode & 0o777).toBe(0o600);
      const { SECRETS_KEY: oldKey, ...rest } = env;
      newEnv = { ...rest, SECRETS_KEY_FILE: newKeyFile };
      oldEnv = { ...rest, SECRETS_KEY: oldKey! };
    }

    server = await startServerProcess(newEnv);
    try {
      // The next time step: the code of the first sign-in was used.
      expect((await signIn(server.url, admin, new Date(Date.now() + 30_000))).status).toBe(200);
      const stale = await fetch(`${server.url}/api/session`, { headers: { cookie: oldCookie } });
      expect(stale.status).toBe(401);
    } finally {
      expect(await server.stop(), server.output().slice(-4000)).toBe(0);
    }
    const old = await startServerProcess(oldEnv).then(
      async (s) => {
        await s.stop();
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(old).toMatch(
      /Pathway could not start: The secrets key from SECRETS_KEY \(key id [\w-]{8}\) is not the key this database's secrets are sealed with/,
    );
  }, 300_000);
});
