import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { auditEvents } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestAdmin, type TestApp } from '../../../test/harness.js';
import { logWritten } from '../../../test/wait.js';

let t: TestApp;
let full: string;
let fullAdmin: TestAdmin;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie: full, admin: fullAdmin } = await signedInCookie(t.ctx, 'full access'));
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
  mkdirSync(t.config.logDir, { recursive: true });
  writeFileSync(path.join(t.config.logDir, 'pathway-2026-01-02.log'), '{"msg":"older"}\n');
  writeFileSync(path.join(t.config.logDir, 'notes.txt'), 'not a log');
  writeFileSync(path.join(t.config.dataDir, 'secret.log'), 'outside the log folder');
});
afterAll(() => t.close());

const get = (url: string, cookie = full) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('server logs', () => {
  it('lists only daily log files, newest first, to full-access users', async () => {
    await get('/healthz'); // makes sure today's file exists
    const res = await get('/api/logs/getloglist');
    expect(res.statusCode).toBe(200);
    const names: string[] = res.json();
    expect(names.at(-1)).toBe('pathway-2026-01-02.log');
    expect(names[0]).toBe(`pathway-${new Date().toISOString().slice(0, 10)}.log`);
    expect(names).not.toContain('notes.txt');
    expect((await get('/api/logs/getloglist', basic)).statusCode).toBe(403);
  });

  it('downloads a listed file under its own name', async () => {
    const res = await get('/api/logs/download/pathway-2026-01-02.log');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="pathway-2026-01-02.log"');
    expect(res.body).toBe('{"msg":"older"}\n');
    expect((await get('/api/logs/download/pathway-2026-01-02.log', basic)).statusCode).toBe(403);
  });

  it('refuses every name that is not a listed log file', async () => {
    const attempts = [
      '..%2Fsecret.log',
      '..%2F..%2Fetc%2Fpasswd',
      '%2Fetc%2Fpasswd',
      'notes.txt',
      'pathway-2026-01-02.log%00.txt',
      '%2e%2e%2fsecret.log',
      'pathway-1999-01-01.log',
      'pathway-2026-01-02.log%2F..',
      '....%2F%2Fsecret.log',
    ];
    for (const name of attempts) {
      const res = await get(`/api/logs/download/${name}`);
      // A name the pattern allows but no file has is not found; a NUL byte is refused before any
      // route sees it; any other name is refused as a name.
      if (name === 'pathway-1999-01-01.log') expect(res.json()).toEqual({ message: messages.logs.notFound });
      else {
        expect(res.statusCode).toBe(400);
        const expected = name.includes('%00') ? messages.generic.unstorableText : messages.logs.badName;
        expect(res.json<{ message: string }>().message).toContain(expected);
      }
      expect(res.body).not.toContain('outside the log folder');
    }
    const traversal = await get('/api/logs/download/../../secret.log');
    expect([400, 404]).toContain(traversal.statusCode);
  });

  it('never writes credentials or cookies into the logs', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { user_name: 'who.ever', password: 'Sup3r-Secret-Pw', mfa_token: '424242' },
    });
    await get('/api/admin');
    (t.ctx.logger as unknown as { flush(cb?: () => void): void }).flush();
    await logWritten(t.config.logDir, '"url":"/api/admin"');
    const today = await get(`/api/logs/download/pathway-${new Date().toISOString().slice(0, 10)}.log`);
    expect(today.body).toContain('"url":"/login"');
    expect(today.body).not.toContain('Sup3r-Secret-Pw');
    expect(today.body).not.toContain('424242');
    expect(today.body).not.toContain(full.slice(4, 40));
  });

  it('records every view and download in the audit trail, and nothing for a refused name', async () => {
    const logReads = async () =>
      (await t.ctx.database.db.select().from(auditEvents)).filter((e) => e.action.startsWith('logs.'));
    const before = (await logReads()).length;
    const viewed = await get('/api/logs/download/pathway-2026-01-02.log?view=true');
    expect(viewed.statusCode).toBe(200);
    expect(viewed.headers['content-disposition']).toBe('inline; filename="pathway-2026-01-02.log"');
    expect(viewed.body).toBe('{"msg":"older"}\n');
    expect((await get('/api/logs/download/pathway-2026-01-02.log?view=false')).statusCode).toBe(200);
    expect((await get('/api/logs/download/pathway-2026-01-02.log?view=maybe')).statusCode).toBe(400);
    expect((await get('/api/logs/download/pathway-1999-01-01.log')).statusCode).toBe(404);
    expect((await get('/api/logs/download/pathway-2026-01-02.log', basic)).statusCode).toBe(403);

    const rows = (await logReads()).slice(before);
    expect(rows.map((r) => [r.action, r.detail, r.admin_user_id])).toEqual([
      ['logs.view', 'pathway-2026-01-02.log', fullAdmin.admin_user_id],
      ['logs.download', 'pathway-2026-01-02.log', fullAdmin.admin_user_id],
    ]);
    const listed = await get('/api/audit?action=logs.view');
    expect(listed.json<{ data: { action_label: string }[] }>().data[0]!.action_label).toBe(
      'Viewed a server log',
    );
  });
});
