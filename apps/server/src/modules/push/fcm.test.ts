import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFcm } from '../../../test/fake-fcm.js';
import { FcmProvider, readServiceAccount } from './fcm.js';

let fake: FakeFcm;
let dir: string;

beforeAll(async () => {
  fake = await new FakeFcm().start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-fcm-'));
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

const provider = (options: { wrongKey?: boolean; project?: string } = {}) =>
  new FcmProvider({
    projectId: options.project ?? fake.projectId,
    serviceAccount: readServiceAccount(fake.writeServiceAccount(dir, options)),
    apiUrl: fake.url,
  });

describe('the FCM HTTP v1 provider', () => {
  it('mints one OAuth token from the service account, caches it, and sends the v1 request shape', async () => {
    const fcm = provider();
    const before = fake.tokenRequests;
    const sentBefore = fake.received.length;
    for (const n of [1, 2, 3]) {
      const result = await fcm.send({
        token: `device-token-${n}`,
        title: 'You missed one video',
        body: 'Open the app to catch up.',
      });
      expect(result.outcome).toBe('sent');
      if (result.outcome === 'sent')
        expect(result.providerMessageId).toMatch(/^projects\/pathway-test-project\/messages\//);
    }
    expect(fake.tokenRequests - before).toBe(1);
    const received = fake.received.slice(sentBefore);
    expect(received).toHaveLength(3);
    expect(received[0]!.authorization).toMatch(/^Bearer ya29\.fake-/);
    // Only the recipient and what was typed: nothing else about the participant.
    expect(received[0]!.body).toEqual({
      message: {
        token: 'device-token-1',
        notification: { title: 'You missed one video', body: 'Open the app to catch up.' },
        android: { priority: 'high' },
      },
    });
  });

  it('reports an uninstalled app as unregistered', async () => {
    fake.unregister('gone-token');
    const result = await provider().send({ token: 'gone-token', title: 'Hello', body: 'There' });
    expect(result).toEqual({
      outcome: 'unregistered',
      error: 'UNREGISTERED: Requested entity was not found.',
    });
  });

  it("asks for a retry on 429 (with FCM's Retry-After) and on 5xx", async () => {
    fake.script(
      'busy-token',
      { kind: 'quota', retryAfterSeconds: 42 },
      { kind: 'unavailable' },
      { kind: 'internal' },
    );
    const fcm = provider();
    const message = { token: 'busy-token', title: 'Hello', body: 'There' };
    expect(await fcm.send(message)).toMatchObject({
      outcome: 'retry',
      retryAfterMs: 42_000,
      error: expect.stringMatching(/^QUOTA_EXCEEDED/),
    });
    expect(await fcm.send(message)).toMatchObject({
      outcome: 'retry',
      error: expect.stringMatching(/^UNAVAILABLE/),
    });
    expect(await fcm.send(message)).toMatchObject({
      outcome: 'retry',
      error: expect.stringMatching(/^INTERNAL/),
    });
    expect((await fcm.send(message)).outcome).toBe('sent');
  });

  it('gives up on a request FCM will never accept', async () => {
    fake.script('bad-token', { kind: 'invalid-token' });
    expect(await provider().send({ token: 'bad-token', title: 'Hello', body: 'There' })).toEqual({
      outcome: 'failed',
      error: 'INVALID_ARGUMENT: The registration token is not a valid FCM registration token',
    });
    expect(
      await provider({ project: 'someone-elses-project' }).send({
        token: 't',
        title: 'Hello',
        body: 'There',
      }),
    ).toMatchObject({
      outcome: 'failed',
      error: expect.stringMatching(/^SENDER_ID_MISMATCH/),
    });
  });

  it('mints a new access token after FCM refuses the cached one', async () => {
    const fcm = provider();
    expect((await fcm.send({ token: 'a', title: 'Hello', body: 'There' })).outcome).toBe('sent');
    fake.revokeAccessTokens();
    const before = fake.tokenRequests;
    expect(await fcm.send({ token: 'a', title: 'Hello', body: 'There' })).toMatchObject({
      outcome: 'retry',
      error: expect.stringMatching(/^UNAUTHENTICATED/),
    });
    expect((await fcm.send({ token: 'a', title: 'Hello', body: 'There' })).outcome).toBe('sent');
    expect(fake.tokenRequests - before).toBe(1);
  });

  it('retries later when the token endpoint refuses the assertion (wrong key)', async () => {
    const result = await provider({ wrongKey: true }).send({ token: 'a', title: 'Hello', body: 'There' });
    expect(result).toMatchObject({ outcome: 'retry', error: expect.stringMatching(/invalid_grant/) });
  });

  it('refuses a key file that is not a service-account key, saying why', () => {
    const file = path.join(dir, 'not-a-key.json');
    writeFileSync(file, JSON.stringify({ type: 'authorized_user', client_email: 'x' }));
    expect(() => readServiceAccount(file)).toThrow(/type must be service_account/);
    expect(() => readServiceAccount(path.join(dir, 'missing.json'))).toThrow(/cannot be read as JSON/);
  });
});
