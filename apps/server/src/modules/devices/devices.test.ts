import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { authorizedDevices, deviceTokens, participants } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import {
  addParticipant,
  firstSite,
  insertDevice,
  issueDeviceToken,
  newUuid,
} from '../../../test/factories.js';

const dm = messages.device;

let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
  cookie = full,
) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
}

async function deviceCount(): Promise<number> {
  const [row] = await t.ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(authorizedDevices);
  return row!.n;
}

describe('adding a device', () => {
  it('stores the uuid lower-cased and answers it unassigned', async () => {
    const uuid = newUuid().toUpperCase();
    const res = await call('POST', '/api/authorizeddevices', { name: '  Tablet A  ', uuid }, basic);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Tablet A',
      uuid: uuid.toLowerCase(),
      unique_device_id: 'empty',
      participant_id: null,
      push_notification_id: null,
    });
  });

  const refusals: Array<[Record<string, unknown>, string]> = [
    [{ uuid: 'abc' }, dm.nameEmpty],
    [{ name: '', uuid: 'abc' }, dm.nameEmpty],
    [{ name: 'A', uuid: 'abc' }, dm.nameShort],
    [{ name: 'Tablet' }, dm.uuidEmpty],
    [{ name: 'Tablet', uuid: '   ' }, dm.uuidEmpty],
    [{ name: 'Tablet', uuid: 'has space' }, dm.uuidFormat],
    [{ name: 'Tablet', uuid: '../etc' }, dm.uuidFormat],
    [{ name: 'Tablet', uuid: 'EMPTY' }, dm.uuidReserved],
    [{ name: 'Tablet', uuid: 'available' }, dm.uuidReserved],
  ];

  it.each(refusals)('refuses %j with "%s"', async (body, message) => {
    const before = await deviceCount();
    const res = await call('POST', '/api/authorizeddevices', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await deviceCount()).toBe(before);
  });

  it('refuses a uuid that exists already, whatever its case', async () => {
    const uuid = newUuid();
    expect((await call('POST', '/api/authorizeddevices', { name: 'First', uuid })).statusCode).toBe(201);
    const again = await call('POST', '/api/authorizeddevices', { name: 'Second', uuid: uuid.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: dm.uuidTaken });
  });

  it('keeps mixed case out at the database level too', async () => {
    await expect(
      t.ctx.database.db.insert(authorizedDevices).values({
        name: 'Raw',
        uuid: 'ABCDEF0123456789',
        organisation_id: (await firstSite(t.ctx.database.db)).organisation_id,
      }),
    ).rejects.toThrow();
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/authorizeddevices',
      payload: { name: 'Tablet', uuid: newUuid() },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('listing devices', () => {
  it('shows full access the holder by name, basic access only that it is assigned, its uuid masked', async () => {
    const { participant, device } = await addParticipant(t, full, { first_name: 'Maud', last_name: 'Gonne' });
    const spare = await insertDevice(t.ctx);

    const asFull = (await call('GET', '/api/authorizeddevices')).json();
    expect(asFull.find((d: { uuid: string }) => d.uuid === device.uuid)).toMatchObject({
      participant_id: participant.participant_id,
      first_name: 'Maud',
      last_name: 'Gonne',
      unique_device_id: device.uuid,
    });
    expect(asFull.find((d: { uuid: string }) => d.uuid === spare.uuid)).toMatchObject({
      participant_id: null,
      first_name: null,
      last_name: null,
      unique_device_id: 'empty',
    });

    const asBasic = await call('GET', '/api/authorizeddevices', undefined, basic);
    expect(asBasic.body).not.toContain('Maud');
    // With the whole uuid, call 1 would answer the participant's name: basic access sees its end only.
    expect(asBasic.body).not.toContain(device.uuid);
    const masked = `…${device.uuid.slice(-4)}`;
    expect(
      asBasic
        .json()
        .find(
          (d: { authorized_device_id: number }) => d.authorized_device_id === device.authorized_device_id,
        ),
    ).toEqual({
      authorized_device_id: device.authorized_device_id,
      name: device.name,
      uuid: masked,
      push_notification_id: null,
      unique_device_id: masked,
      participant_id: participant.participant_id,
      flagged_sign_in_at: null,
    });
    // An unassigned device is nobody's: its uuid is shown whole, so it can be assigned.
    expect(asBasic.json().find((d: { uuid: string }) => d.uuid === spare.uuid)).toMatchObject({
      unique_device_id: 'empty',
    });
  });

  it('lists only unassigned devices as available', async () => {
    const { device } = await addParticipant(t, full);
    const spare = await insertDevice(t.ctx);
    const available = (await call('GET', '/api/authorizeddevices/available', undefined, basic)).json<
      Array<{ uuid: string }>
    >();
    expect(available.map((d) => d.uuid)).toContain(spare.uuid);
    expect(available.map((d) => d.uuid)).not.toContain(device.uuid);
  });

  it('finds one device by uuid as an array, empty when unknown', async () => {
    const spare = await insertDevice(t.ctx);
    expect((await call('GET', `/api/authorizeddevices/${spare.uuid.toUpperCase()}`)).json()).toEqual([
      expect.objectContaining({ authorized_device_id: spare.authorized_device_id, uuid: spare.uuid }),
    ]);
    expect((await call('GET', '/api/authorizeddevices/0123456789abcdef')).json()).toEqual([]);
  });
});

describe('editing a device', () => {
  it('changes name and uuid (lower-cased), ignoring the rest of the device object', async () => {
    const device = await insertDevice(t.ctx);
    const uuid = newUuid();
    const res = await call('PATCH', `/api/authorizeddevices/id/${device.authorized_device_id}`, {
      authorized_device_id: 999,
      name: 'Renamed',
      uuid: uuid.toUpperCase(),
      push_notification_id: 'forged',
      unique_device_id: 'forged',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      authorized_device_id: device.authorized_device_id,
      name: 'Renamed',
      uuid,
      push_notification_id: null,
    });
  });

  it('refuses a taken uuid, bad names and unknown devices', async () => {
    const a = await insertDevice(t.ctx);
    const b = await insertDevice(t.ctx);
    const taken = await call('PATCH', `/api/authorizeddevices/id/${b.authorized_device_id}`, {
      uuid: a.uuid,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ message: dm.uuidTaken });
    const short = await call('PATCH', `/api/authorizeddevices/id/${b.authorized_device_id}`, { name: 'x' });
    expect(short.json()).toMatchObject({ message: dm.nameShort });
    const missing = await call('PATCH', '/api/authorizeddevices/id/2000000000', { name: 'Nobody' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: dm.notFound });
    expect((await call('PATCH', '/api/authorizeddevices/id/abc', { name: 'Nobody' })).statusCode).toBe(400);
    const [row] = await t.ctx.database.db
      .select()
      .from(authorizedDevices)
      .where(eq(authorizedDevices.authorized_device_id, b.authorized_device_id));
    expect(row).toMatchObject({ name: b.name, uuid: b.uuid });
  });

  it("ends the old tablet's sign-in when an assigned device gets a new uuid", async () => {
    const { participant, device } = await addParticipant(t, full);
    const token = await issueDeviceToken(t.ctx, device.authorized_device_id, participant.participant_id);
    const res = await call('PATCH', `/api/authorizeddevices/id/${device.authorized_device_id}`, {
      uuid: newUuid(),
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.ctx.database.db
      .select()
      .from(deviceTokens)
      .where(eq(deviceTokens.authorized_device_id, device.authorized_device_id));
    expect(row!.revoked_at).not.toBeNull();
    const tabletCall = await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${participant.participant_id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { purge_cache: 'false' },
    });
    expect(tabletCall.statusCode).toBe(401);
  });
});

describe('deleting a device', () => {
  it('deletes an unassigned device', async () => {
    const device = await insertDevice(t.ctx);
    const res = await call(
      'DELETE',
      `/api/authorizeddevices/id/${device.authorized_device_id}`,
      undefined,
      basic,
    );
    expect(res.statusCode).toBe(200);
    expect((await call('GET', `/api/authorizeddevices/${device.uuid}`)).json()).toEqual([]);
    expect(
      (await call('DELETE', `/api/authorizeddevices/id/${device.authorized_device_id}`)).statusCode,
    ).toBe(404);
  });

  it('refuses to delete an assigned device', async () => {
    const { participant, device } = await addParticipant(t, full);
    const res = await call('DELETE', `/api/authorizeddevices/id/${device.authorized_device_id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: dm.assignedCannotBeDeleted });
    const [row] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, participant.participant_id));
    expect(row!.authorized_device_id).toBe(device.authorized_device_id);
  });
});
