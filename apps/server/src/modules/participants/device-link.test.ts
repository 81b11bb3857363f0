import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { deviceTokens, participants } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { addParticipant, firstSite, insertDevice, issueDeviceToken } from '../../../test/factories.js';

let t: TestApp;
let full: string;
let basic: string;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
});
afterAll(() => t.close());

function patch(id: number, payload: Record<string, unknown>, cookie = full) {
  return t.app.inject({ method: 'PATCH', url: `/api/participant/${id}`, headers: { cookie }, payload });
}

/** Device API call 3: the tablet clears its purge flag with a form body and its bearer token. */
function tabletClearsPurge(participantId: number, token: string, body = 'purge_cache=false') {
  return t.app.inject({
    method: 'PATCH',
    url: `/api/participant/${participantId}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
}

describe('one device, one participant', () => {
  it('is enforced by the database itself', async () => {
    const { device } = await addParticipant(t, full);
    await expect(
      t.ctx.database.db.insert(participants).values({
        first_name: 'Raw',
        last_name: 'Insert',
        date_of_birth: '1970-01-01',
        phone_number: '+447700900000',
        address: 'Somewhere',
        authorized_device_id: device.authorized_device_id,
        ...(await firstSite(t.ctx.database.db)),
      }),
    ).rejects.toThrow();
  });

  it('refuses to attach a device another participant holds', async () => {
    const first = await addParticipant(t, full);
    const second = await addParticipant(t, full);
    const res = await patch(second.participant.participant_id, { unique_device_id: first.device.uuid });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: messages.device.alreadyAssigned });
    expect(
      (await patch(second.participant.participant_id, { unique_device_id: '0000000000000000' })).json(),
    ).toEqual({ message: messages.device.notFound });
  });
});

describe('detaching and changing a device', () => {
  it('detaches with "empty": the device is free, the push token forgotten, the tablet signed out', async () => {
    const { participant, device } = await addParticipant(t, full);
    await t.ctx.database.db
      .update(participants)
      .set({ push_notification_id: 'fcm-token-of-old-tablet' })
      .where(eq(participants.participant_id, participant.participant_id));
    const token = await issueDeviceToken(t.ctx, device.authorized_device_id, participant.participant_id);
    expect((await tabletClearsPurge(participant.participant_id, token)).statusCode).toBe(200);

    // Full access only: a basic admin could otherwise cut the tablet off.
    const refused = await patch(participant.participant_id, { unique_device_id: 'empty' }, basic);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.device.assignFullAccessOnly);
    expect((await tabletClearsPurge(participant.participant_id, token)).statusCode).toBe(200);
    const res = await patch(participant.participant_id, { unique_device_id: 'empty' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      unique_device_id: 'empty',
      name: null,
      push_notification_id: 'empty',
    });

    const [tokenRow] = await t.ctx.database.db
      .select()
      .from(deviceTokens)
      .where(eq(deviceTokens.authorized_device_id, device.authorized_device_id));
    expect(tokenRow!.revoked_at).not.toBeNull();
    expect((await tabletClearsPurge(participant.participant_id, token)).statusCode).toBe(401);

    const available = await t.app.inject({
      method: 'GET',
      url: '/api/authorizeddevices/available',
      headers: { cookie: basic },
    });
    expect(available.json().map((d: { uuid: string }) => d.uuid)).toContain(device.uuid);
    // Detaching again changes nothing and is not an error.
    expect((await patch(participant.participant_id, { unique_device_id: 'EMPTY' })).json()).toMatchObject({
      unique_device_id: 'empty',
    });
  });

  it('attaches an available device by uuid, in any case, and the old pairing stops working', async () => {
    const { participant, device } = await addParticipant(t, full);
    const oldToken = await issueDeviceToken(t.ctx, device.authorized_device_id, participant.participant_id);
    const replacement = await insertDevice(t.ctx, { name: 'Replacement' });
    // Full access only: a basic admin could move a participant onto a device of theirs and read
    // the name through call 1.
    expect(
      (await patch(participant.participant_id, { unique_device_id: replacement.uuid }, basic)).statusCode,
    ).toBe(403);
    const res = await patch(participant.participant_id, { unique_device_id: replacement.uuid.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      unique_device_id: replacement.uuid,
      name: 'Replacement',
      push_notification_id: 'empty',
    });
    expect((await tabletClearsPurge(participant.participant_id, oldToken)).statusCode).toBe(401);
    // The old device can be given to someone else now.
    const other = await addParticipant(t, full);
    expect(
      (await patch(other.participant.participant_id, { unique_device_id: device.uuid })).statusCode,
    ).toBe(200);
  });

  it('keeps the pairing when the same device is sent again', async () => {
    const { participant, device } = await addParticipant(t, full);
    const token = await issueDeviceToken(t.ctx, device.authorized_device_id, participant.participant_id);
    expect((await patch(participant.participant_id, { unique_device_id: device.uuid })).statusCode).toBe(200);
    expect((await tabletClearsPurge(participant.participant_id, token)).statusCode).toBe(200);
  });
});

describe('the tablet on the shared PATCH path', () => {
  it('may clear only its own purge flag', async () => {
    const { participant, device } = await addParticipant(t, full);
    const other = await addParticipant(t, full);
    await patch(participant.participant_id, { purge_cache: true });
    const token = await issueDeviceToken(t.ctx, device.authorized_device_id, participant.participant_id);

    const ok = await tabletClearsPurge(participant.participant_id, token);
    expect(ok.statusCode).toBe(200);
    const [row] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, participant.participant_id));
    expect(row!.purge_cache).toBe(false);

    const elsewhere = await tabletClearsPurge(other.participant.participant_id, token);
    expect(elsewhere.statusCode).toBe(403);
    const more = await tabletClearsPurge(
      participant.participant_id,
      token,
      'purge_cache=false&first_name=Mallory',
    );
    expect(more.statusCode).toBe(403);
    expect(more.json()).toEqual({ message: messages.participant.deviceOnlyPurgeCache });
    expect((await tabletClearsPurge(participant.participant_id, 'x'.repeat(43))).statusCode).toBe(401);
  });
});
