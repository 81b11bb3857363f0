import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/modules/auth/totp.js';
import { keepLogs } from './harness.js';
import { processDatabaseEnv, removeDataDir, runCli, startServerProcess } from './process.js';
import { waitForOutput } from './resilience/helpers.js';

// The operator's view: the real process, the real CLI through npm, real HTTP.
let dataDir: string;
let dbEnv: Record<string, string>;
let dropDb: () => Promise<void>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-ops-'));
  ({ env: dbEnv, drop: dropDb } = await processDatabaseEnv());
});
afterAll(async () => {
  await dropDb();
  keepLogs(dataDir);
  removeDataDir(dataDir);
});

async function signIn(
  url: string,
  admin: { user_name: string; totp_secret: string },
  password: string,
  at = new Date(),
) {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_name: admin.user_name,
      password,
      mfa_token: totpCode(admin.user_name, admin.totp_secret, at),
    }),
  });
  return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0] ?? '' };
}

describe('operations', () => {
  it('create-admin --json prints exactly one JSON object, before and while the server runs, and data survives a restart', async () => {
    const env = { DATA_DIR: dataDir, ...dbEnv };
    const first = await runCli(
      [
        'create-admin',
        '--username',
        'first.admin',
        '--password',
        'correct horse',
        '--role',
        'full access',
        '--first-name',
        'First',
        '--last-name',
        'Admin',
        '--json',
      ],
      env,
    );
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout);
    expect(Object.keys(created).sort()).toEqual([
      'admin_user_id',
      'organisation_id',
      'otpauth_url',
      'role',
      'system_administrator',
      'totp_secret',
      'user_name',
    ]);
    // The first admin of an empty instance runs it (organisations, sites, server logs).
    expect(created).toMatchObject({
      user_name: 'first.admin',
      role: 'full access',
      organisation_id: 1,
      system_administrator: true,
    });
    expect(created.totp_secret).toMatch(/^[A-Z2-7]+=*$/);

    const server = await startServerProcess(env);
    try {
      // While the server holds the embedded database, the CLI goes through it.
      const second = await runCli(
        ['create-admin', '--username', 'second.admin', '--password', 'correct horse', '--json'],
        env,
      );
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({
        user_name: 'second.admin',
        role: 'basic access',
        system_administrator: false,
      });

      const human = await runCli(
        ['create-admin', '--username', 'third.admin', '--password', 'correct horse'],
        env,
      );
      expect(human.code).toBe(0);
      expect(human.stdout).toContain('Scan this QR code');
      expect(human.stdout).toContain('▄');

      const bad = await runCli(
        ['create-admin', '--username', 'x', '--password', 'correct horse', '--json'],
        env,
      );
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('Username must be at least 6 characters');

      expect((await signIn(server.url, created, 'correct horse')).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const restarted = await startServerProcess(env);
    try {
      const again = await signIn(restarted.url, created, 'correct horse', new Date(Date.now() + 30_000));
      expect(again.status).toBe(200);
      const admins = await fetch(`${restarted.url}/api/admin`, { headers: { cookie: again.cookie } });
      const names = ((await admins.json()) as { user_name: string }[]).map((a) => a.user_name);
      expect(names).toEqual(['first.admin', 'second.admin', 'third.admin']);
    } finally {
      await restarted.stop();
    }
  }, 300_000);

  it("npm start's built server starts ready on an empty data dir and tells the operator how to create the first admin", async () => {
    const emptyDir = mkdtempSync(path.join(os.tmpdir(), 'pathway-ops-empty-'));
    const { env, drop } = await processDatabaseEnv();
    // The bundle `npm start` runs, as every process test does (process.ts).
    const server = await startServerProcess({ DATA_DIR: emptyDir, ...env });
    try {
      // The hint is printed after the server is ready (once the workers have started): wait for it.
      await waitForOutput(server, /npm run cli -- create-admin/);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const docs = await fetch(`${server.url}/api/docs/json`);
      expect(docs.status).toBe(200);
      expect(Object.keys((await docs.json()).paths)).toContain('/api/participant');
      const signIn = await fetch(`${server.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_name: 'nobody', password: 'wrong password', mfa_token: '000000' }),
      });
      expect(signIn.status).toBe(401);
      if (!env.DATABASE_URL) {
        // An embedded backup opens its database copy in a worker thread (backup.ts, countRowsOfCopy).
        const backup = await runCli(['backup', '--out', path.join(emptyDir, 'check.tar'), '--json'], {
          DATA_DIR: emptyDir,
        });
        expect(backup.code, backup.stderr).toBe(0);
        expect((JSON.parse(backup.stdout) as { tables: number }).tables).toBeGreaterThan(0);
      }
      expect(await server.stop()).toBe(0);
    } finally {
      await server.stop();
      await drop();
      keepLogs(emptyDir);
      removeDataDir(emptyDir);
    }
  }, 300_000);
});
