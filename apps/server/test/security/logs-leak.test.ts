import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IDENTIFIABLE_FIELDS } from '@pathway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeLogs, createLogger, serializeRequest, type LoggerOptions } from '../../src/logging.js';
import { totpCode } from '../../src/modules/auth/totp.js';
import { createAdmin, createTestApp, type TestApp } from '../harness.js';
import { addParticipant } from '../factories.js';
import { makeProgress, makeVideoSet, makeVideos } from '../programme-factories.js';
import { recordSecret, scanLogs } from './log-leaks.js';
import { logWritten } from '../wait.js';

/**
 * The scan that runs after the whole suite (log-scan.setup.ts) is only worth something if it finds
 * a leak: it is tested here on planted lines. Then one app goes through every path that handles a
 * secret or a person's details (sign-in with password and TOTP code, search by name, the tablet's
 * registration and token) and its own log is scanned for those exact values.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the log scan', () => {
  it('finds seeded values, handed-out secrets and unredacted fields, and passes clean lines', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'pathway-scan-check-'));
    try {
      mkdirSync(path.join(root, 'one-app'));
      const clean = JSON.stringify({
        level: 30,
        req: { url: '/api/participant?q=[redacted]' },
        password: '[redacted]',
        msg: 'incoming request',
      });
      const lines = [
        clean,
        JSON.stringify({ level: 30, msg: 'participant added', who: 'Lovelace17' }),
        JSON.stringify({ level: 30, msg: 'x', body: { phone_number: '+447700900123' } }),
        JSON.stringify({
          level: 30,
          msg: 'x',
          headers: { cookie: 'jwt=eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiIxIn0.sig' },
        }),
        JSON.stringify({ level: 30, msg: 'x', mfa_token: '123456' }),
        JSON.stringify({ level: 30, msg: 'the token was handed-out-secret-value-42' }),
        JSON.stringify({ level: 30, msg: 'x', email: 'ada17@example.org' }),
        // An admin's user name from the harness, whose random suffix happens to end in "ada7": not
        // the factories' participant email (a run once failed on it).
        JSON.stringify({ level: 30, req: { url: '/api/admin/admin28.19ada7@example.org' }, msg: 'x' }),
      ];
      writeFileSync(path.join(root, 'one-app', 'pathway-2026-01-01.log'), `${lines.join('\n')}\n`);
      recordSecret(root, 'handed-out-secret-value-42');
      const report = scanLogs(root);
      expect(report.files).toBe(1);
      expect(report.lines).toBe(lines.length);
      const byLine = (n: number) => report.leaks.filter((l) => l.includes(`.log:${n}:`));
      expect(byLine(1)).toEqual([]);
      expect(byLine(2).join()).toContain('participant surname');
      expect(byLine(3).join()).toContain('phone');
      expect(byLine(4).join()).toMatch(/JSON web token|session cookie|unredacted field headers.cookie/);
      expect(byLine(5).join()).toContain('unredacted field mfa_token');
      expect(byLine(6).join()).toContain('a participant detail or secret the tests stored or handed out');
      expect(byLine(7).join()).toContain('participant email');
      expect(byLine(8)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('logs a request path with the names of its query parameters, never their values', () => {
    expect(
      serializeRequest({ method: 'GET', url: '/api/participant?q=Lovelace&after=abc&q=x', ip: '10.0.0.1' }),
    ).toEqual({
      method: 'GET',
      url: '/api/participant?q=[redacted]&after=[redacted]',
      host: undefined,
      remoteAddress: '10.0.0.1',
    });
    expect(serializeRequest({ method: 'GET', url: '/healthz' }).url).toBe('/healthz');
  });
});

/** The line a real logger (createLogger, as the server makes it) wrote for `write`, parsed. */
async function loggedLine(
  options: Pick<LoggerOptions, 'identifiableFields'>,
  write: (logger: ReturnType<typeof createLogger>) => void,
) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-redaction-'));
  const logger = createLogger({ level: 'info', logDir: dir, toStdout: false, ...options });
  try {
    write(logger);
    // The file is written asynchronously: wait for the whole line.
    const text = await logWritten(dir, '"msg":"logged"}\n');
    return JSON.parse(text.trim()) as Record<string, Record<string, unknown>>;
  } finally {
    closeLogs(logger);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('redaction', () => {
  it("redacts every identifiable field of the contract's list, referral fields and notes included", async () => {
    const participant = Object.fromEntries(IDENTIFIABLE_FIELDS.map((field) => [field, `value of ${field}`]));
    const line = await loggedLine({}, (logger) => logger.info({ participant, body: participant }, 'logged'));
    for (const field of IDENTIFIABLE_FIELDS) {
      expect(line.participant![field], field).toBe('[redacted]');
      expect(line.body![field], field).toBe('[redacted]');
    }
    for (const field of ['notes', 'last_ip_address', 'referring_organisation', 'smoker'])
      expect(IDENTIFIABLE_FIELDS).toContain(field);
    expect(JSON.stringify(line)).not.toContain('value of');
  });

  it('redacts a field newly added to the list, without a change to the logging code', async () => {
    const identifiableFields = [...IDENTIFIABLE_FIELDS, 'favourite_exercise'];
    const line = await loggedLine({ identifiableFields }, (logger) =>
      logger.info(
        { participant: { favourite_exercise: 'Hill walks', first_name: 'Ada', participant_id: 7 } },
        'logged',
      ),
    );
    expect(line.participant).toEqual({
      favourite_exercise: '[redacted]',
      first_name: '[redacted]',
      participant_id: 7,
    });
    // The same line through the contract's list alone keeps the unplanted field: the planting did it.
    const plain = await loggedLine({}, (logger) =>
      logger.info({ participant: { favourite_exercise: 'Hill walks' } }, 'logged'),
    );
    expect(plain.participant!.favourite_exercise).toBe('Hill walks');
  });
});

describe("one app's log after every path that handles secrets and details", () => {
  it('holds none of the password, TOTP code, cookie, bearer token, names or contact details it saw', async () => {
    const admin = await createAdmin(t.ctx, 'full access');
    const code = totpCode(admin.user_name, admin.totpSecret, new Date());
    const login = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { user_name: admin.user_name, password: admin.password, mfa_token: code },
    });
    expect(login.statusCode).toBe(200);
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    // A failed sign-in with a password that looks like one, and a form-encoded one.
    await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { user_name: admin.user_name, password: 'Wrong-But-Real-Looking-9', mfa_token: code },
    });
    await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        user_name: admin.user_name,
        password: 'Form-Password-77',
        mfa_token: '654321',
      }).toString(),
    });

    const { participant, device } = await addParticipant(t, cookie, { notes: 'Knee replaced in 2019' });
    const set = await makeVideoSet(t.ctx.database.db);
    await makeVideos(t.ctx.database.db, set);
    await makeProgress(t.ctx.database.db, participant.participant_id, set.fitness_video_set_id, {
      started_date: '2026-01-05',
    });
    const details = IDENTIFIABLE_FIELDS.map((field) => participant[field]).filter(
      (value): value is string => typeof value === 'string',
    );
    for (const term of [participant.last_name, participant.email, participant.phone_number]) {
      const search = await t.app.inject({
        url: `/api/participant?q=${encodeURIComponent(String(term))}`,
        headers: { cookie },
      });
      expect(search.statusCode).toBe(200);
    }
    await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${participant.participant_id}`,
      headers: { cookie },
      payload: { first_name: 'Renamed-Person', address: '9 Hidden Lane' },
    });

    const registration = await t.app.inject({ url: `/uuid/${device.uuid}` });
    expect(registration.statusCode).toBe(200);
    const bearer = registration.json().auth_token as string;
    await t.app.inject({
      method: 'PATCH',
      url: `/uuid/${device.uuid}`,
      payload: { push_notification_id: 'fcm-registration-token-abcdef123456' },
    });
    await t.app.inject({
      url: `/api/summary/${set.fitness_video_set_id}/participant/${participant.participant_id}`,
      headers: { authorization: `Bearer ${bearer}` },
    });
    await t.app.inject({ method: 'POST', url: '/logout', headers: { cookie } });

    (t.ctx.logger as unknown as { flush(cb?: () => void): void }).flush();
    // Lines are written in order: once the last request's line is there, every earlier one is.
    const text = await logWritten(t.config.logDir, '"url":"/logout"');
    expect(text).toContain('"url":"/login"'); // the log was written and read
    const secrets = [
      admin.password,
      `"${code}"`,
      'Wrong-But-Real-Looking-9',
      'Form-Password-77',
      '"654321"',
      'mfa_token=654321',
      cookie.slice(4),
      bearer,
      'fcm-registration-token-abcdef123456',
      'Renamed-Person',
      '9 Hidden Lane',
      ...details,
    ];
    for (const secret of secrets) expect(text, `the log holds ${secret}`).not.toContain(secret);
    const lines = text.split('\n').filter(Boolean).length;
    console.log(`[logs] ${lines} log lines of one app searched for ${secrets.length} values it saw`);
  });
});
