import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { participants, pushOutbox } from '../../db/schema.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { addParticipant, insertDevice } from '../../../test/factories.js';

const mm = messages.message;

let t: TestApp;
let full: string;
let basic: string;
let basicAdminId: number;

beforeAll(async () => {
  t = await createTestApp();
  full = (await signedInCookie(t.ctx, 'full access')).cookie;
  const b = await signedInCookie(t.ctx, 'basic access');
  basic = b.cookie;
  basicAdminId = b.admin.admin_user_id;
});
afterAll(() => t.close());

function send(payload: Record<string, unknown>, cookie = basic) {
  return t.app.inject({ method: 'POST', url: '/api/pushNotifications', headers: { cookie }, payload });
}

async function outboxOf(participantId: number) {
  return t.ctx.database.db.select().from(pushOutbox).where(eq(pushOutbox.participant_id, participantId));
}

describe('message user', () => {
  it('queues the message for the participant holding the device, to their push token', async () => {
    const { participant, device } = await addParticipant(t, full);
    await t.ctx.database.db
      .update(participants)
      .set({ push_notification_id: 'fcm-token-123' })
      .where(eq(participants.participant_id, participant.participant_id));
    const res = await send({
      title: '  Well done ',
      body: 'Keep going this week',
      uuid: device.uuid.toUpperCase(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: mm.queued });
    expect(await outboxOf(participant.participant_id)).toEqual([
      expect.objectContaining({
        title: 'Well done',
        body: 'Keep going this week',
        kind: 'manual',
        status: 'queued',
        target_token: 'fcm-token-123',
        created_by: basicAdminId,
        sent_at: null,
      }),
    ]);
  });

  it('queues with no target while the tablet has not reported a token ("empty")', async () => {
    const { participant, device } = await addParticipant(t, full);
    expect((await send({ title: 'Hi', body: 'Hello', uuid: device.uuid })).statusCode).toBe(200);
    expect((await outboxOf(participant.participant_id))[0]).toMatchObject({
      target_token: null,
      status: 'queued',
    });
  });

  const refusals: Array<[Record<string, unknown>, string]> = [
    [{ body: 'Hello there' }, mm.titleEmpty],
    [{ title: '', body: 'Hello there' }, mm.titleEmpty],
    [{ title: 'H', body: 'Hello there' }, mm.titleShort],
    [{ title: 'Hello' }, mm.bodyEmpty],
    [{ title: 'Hello', body: '   ' }, mm.bodyEmpty],
    [{ title: 'Hello', body: 'x' }, mm.bodyShort],
  ];

  it.each(refusals)('refuses %j with "%s" and queues nothing', async (payload, message) => {
    const { participant, device } = await addParticipant(t, full);
    const res = await send({ uuid: device.uuid, ...payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await outboxOf(participant.participant_id)).toEqual([]);
  });

  it('refuses an unknown device and one nobody holds', async () => {
    const unknown = await send({ title: 'Hello', body: 'Hello', uuid: 'ffffffffffffffff' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: messages.device.notFound });
    const spare = await insertDevice(t.ctx);
    const unassigned = await send({ title: 'Hello', body: 'Hello', uuid: spare.uuid });
    expect(unassigned.statusCode).toBe(409);
    expect(unassigned.json()).toEqual({ message: messages.device.notAssigned });
    expect((await send({ title: 'Hello', body: 'Hello' })).json().message).toBe(messages.device.uuidEmpty);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/pushNotifications',
      payload: { title: 'Hello', body: 'Hello', uuid: 'abc' },
    });
    expect(res.statusCode).toBe(401);
  });
});
