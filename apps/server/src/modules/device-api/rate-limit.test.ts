import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { ManualClock, createTestApp, type TestApp } from '../../../test/harness.js';
import { makeEnrolledParticipant, randomDeviceUuid } from '../../../test/programme-factories.js';

const clock = new ManualClock(new Date('2025-09-01T09:00:00Z'));
let t: TestApp;
const PER_DEVICE = 4;
const PER_ADDRESS = 6;

beforeAll(async () => {
  // Small limits, so the test reaches them in a few calls; the window is the default hour.
  t = await createTestApp({
    clock,
    env: {
      DEVICE_RATE_LIMIT_PER_DEVICE: String(PER_DEVICE),
      DEVICE_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
    },
  });
});
afterAll(() => t.close());

const call1 = (uuid: string, remoteAddress: string) =>
  t.app.inject({ method: 'GET', url: `/uuid/${uuid}`, remoteAddress });
const call2 = (uuid: string, remoteAddress: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/uuid/${uuid}`,
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    payload: 'push_notification_id=fcm-rate-limit',
  });

describe('calls 1 and 2 are rate limited', () => {
  it('per device id: 429 with Retry-After and a clear message, then recover when the window ends', async () => {
    const { device } = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    // From different addresses, so only the per-device counter can stop it.
    for (let i = 0; i < PER_DEVICE; i++)
      expect((await call1(device.uuid, `10.9.0.${i + 1}`)).statusCode).toBe(200);
    const refused = await call1(device.uuid, '10.9.0.99');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(3600);
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(refused.json()).toEqual({ message: messages.deviceApi.rateLimited(3600) });
    // Call 2 has its own counter.
    expect((await call2(device.uuid, '10.9.0.98')).statusCode).toBe(200);

    clock.advance(30 * 60_000);
    const later = await call1(device.uuid, '10.9.0.99');
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBe(1800);
    clock.advance(30 * 60_000);
    expect((await call1(device.uuid, '10.9.0.99')).statusCode).toBe(200);
  });

  it('per source address: guessing device ids is stopped, whatever the ids', async () => {
    const guesser = '198.51.100.7';
    for (let i = 0; i < PER_ADDRESS; i++)
      expect((await call1(randomDeviceUuid(), guesser)).statusCode).toBe(404);
    const refused = await call1(randomDeviceUuid(), guesser);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toBe(
      messages.deviceApi.rateLimited(Number(refused.headers['retry-after'])),
    );
    // Another address is not affected.
    expect((await call1(randomDeviceUuid(), '198.51.100.8')).statusCode).toBe(404);
    clock.advance(60 * 60_000);
    expect((await call1(randomDeviceUuid(), guesser)).statusCode).toBe(404);
  });

  it('call 2 too, per device id', async () => {
    const { device } = await makeEnrolledParticipant(t.ctx.database.db, { started_date: '2025-09-01' });
    for (let i = 0; i < PER_DEVICE; i++)
      expect((await call2(device.uuid, `10.8.0.${i + 1}`)).statusCode).toBe(200);
    const refused = await call2(device.uuid, '10.8.0.99');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    clock.advance(60 * 60_000);
    expect((await call2(device.uuid, '10.8.0.99')).statusCode).toBe(200);
  });
});
