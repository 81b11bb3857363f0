import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDataDir, startPrettyServerProcess, type ServerProcess } from './process.js';

// What a person at a terminal reads (LOG_FORMAT=pretty, the default on a TTY) against what a
// collector reads (JSON, the default when piped, which every other process test runs with). One
// database project: the format is the logger's, whatever the database.
describe('the log format on stdout', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pathway-log-format-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    removeDataDir(dataDir);
  });

  it('prints readable lines with LOG_FORMAT=pretty, redacted as the JSON is, and keeps the daily file JSON', async () => {
    server = await startPrettyServerProcess({ DATA_DIR: dataDir });
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    // A sign-in attempt logs its request; the password in its body must not appear in either form.
    await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_name: 'nobody', password: 'pretty-secret-value', mfa_token: '123456' }),
    });
    await server.stop();
    const stdout = server.output();
    expect(stdout).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: Pathway is ready on http:\/\/localhost:\d+ /m);
    expect(stdout, 'no JSON line on stdout').not.toMatch(/^\{"level"/m);
    expect(stdout).not.toContain('pretty-secret-value');
    const [logFile] = readdirSync(path.join(dataDir, 'logs'));
    const lines = readFileSync(path.join(dataDir, 'logs', logFile!), 'utf8')
      .trim()
      .split('\n');
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(lines.some((line) => line.includes('"msg":"Pathway is ready on'))).toBe(true);
  });
});
