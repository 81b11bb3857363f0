import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { authorizedDevices, participants, pushOutbox } from '../../db/schema.js';
import { FakeFcm } from '../../../test/fake-fcm.js';
import { ManualClock, createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { waitUntil } from '../../../test/wait.js';
import { makeDevice, makeEnrolledParticipant, makeParticipant } from '../../../test/programme-factories.js';
import { MAX_ATTEMPTS, PushDelivery, createPushProvider } from './delivery.js';
import { FcmProvider, readServiceAccount } from './fcm.js';

const s = messages.push;
const clock = new ManualClock(new Date('2025-03-03T10:00:00Z'));
let t: TestApp;
let fake: FakeFcm;
let dir: string;
let delivery: PushDelivery;

beforeAll(async () => {
  fake = await new FakeFcm().start();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-push-'));
  t = await createTestApp({ clock });
  const provider = new FcmProvider({
    projectId: fake.projectId,
    serviceAccount: readServiceAccount(fake.writeServiceAccount(dir)),
    apiUrl: fake.url,
  });
  delivery = new PushDelivery(t.ctx, provider);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function participantWithToken(token: string | null) {
  const device = await makeDevice(t.ctx.database.db);
  const participant = await makeParticipant(t.ctx.database.db, { deviceId: device.authorized_device_id });
  if (token) {
    await t.ctx.database.db
      .update(participants)
      .set({ push_notification_id: token })
      .where(eq(participants.participant_id, participant.participant_id));
    await t.ctx.database.db
      .update(authorizedDevices)
      .set({ push_notification_id: token })
      .where(eq(authorizedDevices.authorized_device_id, device.authorized_device_id));
  }
  return { participant, device };
}

async function queue(participantId: number, title = 'Time to exercise', kind = 'manual') {
  const [row] = await t.ctx.database.db
    .insert(pushOutbox)
    .values({
      participant_id: participantId,
      title,
      body: 'Your video is waiting.',
      kind,
      created_at: clock.now(),
    })
    .returning();
  return row!.push_id;
}

const row = async (pushId: number) =>
  (await t.ctx.database.db.select().from(pushOutbox).where(eq(pushOutbox.push_id, pushId)))[0]!;

describe('push delivery', () => {
  it('sends queued messages to the participant’s current token and records them as sent', async () => {
    const { participant } = await participantWithToken('token-alpha');
    const id = await queue(participant.participant_id);
    const report = await delivery.deliverDue();
    expect(report.sent).toBeGreaterThanOrEqual(1);
    expect(await row(id)).toMatchObject({
      status: s.sent,
      attempts: 1,
      last_error: null,
      sent_at: clock.now(),
    });
    expect(fake.received.at(-1)!.body).toMatchObject({
      message: { token: 'token-alpha', notification: { title: 'Time to exercise' } },
    });
  });

  it('marks a message for a participant without a push token as not sent', async () => {
    const { participant } = await participantWithToken(null);
    const id = await queue(participant.participant_id);
    await delivery.deliverDue();
    expect((await row(id)).status).toBe(s.noToken);
  });

  it('finishes a batch of mixed messages, each with its own outcome: sent, no token, discharged since', async () => {
    const { participant: withToken } = await participantWithToken('token-mixed');
    const { participant: withoutToken } = await participantWithToken(null);
    const { participant: discharged } = await participantWithToken('token-discharged');
    const ids = [
      await queue(withToken.participant_id, 'Mixed 1'),
      await queue(withoutToken.participant_id, 'Mixed 2'),
      await queue(discharged.participant_id, 'Mixed 3'),
      await queue(withoutToken.participant_id, 'Mixed 4'),
      await queue(withToken.participant_id, 'Mixed 5'),
    ];
    await t.ctx.database.db
      .update(participants)
      .set({ status: 'completed', discharged_on: '2025-03-03' })
      .where(eq(participants.participant_id, discharged.participant_id));
    const sentBefore = fake.received.length;
    const report = await delivery.deliverDue();
    expect(report).toMatchObject({ sent: 2, notSent: 3, retrying: 0, failed: 0 });
    expect(await Promise.all(ids.map(async (id) => (await row(id)).status))).toEqual([
      s.sent,
      s.noToken,
      s.discharged,
      s.noToken,
      s.sent,
    ]);
    // Only the two with a token reached the provider; the others keep no error and no next attempt.
    const titles = fake.received
      .slice(sentBefore)
      .map((r) => (r.body as { message: { notification: { title: string } } }).message.notification.title);
    expect(titles).toEqual(expect.arrayContaining(['Mixed 1', 'Mixed 5']));
    expect(fake.received.length - sentBefore).toBe(2);
    for (const id of [ids[1]!, ids[2]!, ids[3]!])
      expect(await row(id)).toMatchObject({ last_error: null, next_attempt_at: null, sent_at: null });
  });

  it('retries with backoff after 429 and 5xx, honouring Retry-After, then sends once', async () => {
    const { participant } = await participantWithToken('token-busy');
    fake.script('token-busy', { kind: 'quota', retryAfterSeconds: 120 }, { kind: 'unavailable' });
    const id = await queue(participant.participant_id);

    await delivery.deliverDue();
    let r = await row(id);
    expect(r).toMatchObject({
      status: s.queued,
      attempts: 1,
      last_error: expect.stringMatching(/^QUOTA_EXCEEDED/),
    });
    expect(r.next_attempt_at!.getTime() - clock.now().getTime()).toBe(120_000);

    // Not due yet: nothing is sent.
    const before = fake.received.length;
    clock.advance(60_000);
    await delivery.deliverDue();
    expect(fake.received.length).toBe(before);

    clock.advance(60_000);
    const report = await delivery.deliverDue();
    expect(report.retrying).toBe(1);
    r = await row(id);
    expect(r).toMatchObject({
      status: s.queued,
      attempts: 2,
      last_error: expect.stringMatching(/^UNAVAILABLE/),
    });
    expect(r.next_attempt_at!.getTime() - clock.now().getTime()).toBe(60_000);
    expect(report.nextDueAt).toEqual(r.next_attempt_at);

    clock.advance(60_000);
    await delivery.deliverDue();
    expect(await row(id)).toMatchObject({ status: s.sent, attempts: 3, last_error: null });
    expect(
      fake.received.filter((m) => (m.body as { message: { token: string } }).message.token === 'token-busy'),
    ).toHaveLength(3);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts`, async () => {
    const { participant } = await participantWithToken('token-down');
    fake.script('token-down', ...Array.from({ length: MAX_ATTEMPTS }, () => ({ kind: 'internal' as const })));
    const id = await queue(participant.participant_id);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await delivery.deliverDue();
      clock.advance(2 * 60 * 60_000);
    }
    expect(await row(id)).toMatchObject({
      status: s.failed,
      attempts: MAX_ATTEMPTS,
      last_error: expect.stringMatching(/^gave up after 8 attempts; last: INTERNAL/),
    });
  });

  it('clears the participant’s and the device’s token when FCM says the app is unregistered', async () => {
    const { participant, device } = await participantWithToken('token-uninstalled');
    fake.unregister('token-uninstalled');
    const id = await queue(participant.participant_id);
    await delivery.deliverDue();
    expect((await row(id)).status).toBe(s.unregistered);
    const [p] = await t.ctx.database.db
      .select()
      .from(participants)
      .where(eq(participants.participant_id, participant.participant_id));
    expect(p!.push_notification_id).toBe('empty');
    const [d] = await t.ctx.database.db
      .select()
      .from(authorizedDevices)
      .where(eq(authorizedDevices.authorized_device_id, device.authorized_device_id));
    expect(d!.push_notification_id).toBeNull();
  });

  it('takes up a message whose sender stopped half-way, once its claim has expired', async () => {
    const { participant } = await participantWithToken('token-orphan');
    const id = await queue(participant.participant_id);
    await t.ctx.database.db
      .update(pushOutbox)
      .set({ status: s.sending, attempts: 1, next_attempt_at: new Date(clock.now().getTime() + 5 * 60_000) })
      .where(eq(pushOutbox.push_id, id));
    await delivery.deliverDue();
    expect((await row(id)).status).toBe(s.sending);
    clock.advance(6 * 60_000);
    await delivery.deliverDue();
    expect(await row(id)).toMatchObject({ status: s.sent, attempts: 2 });
  });

  it('when the process stops, claims no more and hands back the messages it had not sent', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await queue((await participantWithToken(`token-stop-${i}`)).participant.participant_id));
    let stopping = false;
    fake.onMessage = () => {
      stopping = true; // SIGTERM arrives while the first sends are out
    };
    const provider = new FcmProvider({
      projectId: fake.projectId,
      serviceAccount: readServiceAccount(fake.writeServiceAccount(dir)),
      apiUrl: fake.url,
    });
    try {
      await new PushDelivery(t.ctx, provider, () => stopping).deliverDue();
    } finally {
      fake.onMessage = undefined;
    }
    const statuses = await Promise.all(ids.map(async (id) => (await row(id)).status));
    expect(statuses).not.toContain(s.sending);
    const handedBack = statuses.filter((status) => status === s.queued).length;
    expect(handedBack).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === s.sent).length).toBe(ids.length - handedBack);
    // The next delivery (after the restart) sends them at once, with no claim to wait out.
    await delivery.deliverDue();
    expect(await Promise.all(ids.map(async (id) => (await row(id)).status))).toEqual(ids.map(() => s.sent));
  });

  it('without a provider, keeps messages in the outbox marked as not sent', async () => {
    const { participant } = await participantWithToken('token-beta');
    const id = await queue(participant.participant_id);
    expect(createPushProvider(t.config)).toBeNull();
    await new PushDelivery(t.ctx, null).deliverDue();
    expect(await row(id)).toMatchObject({ status: 'not sent: no provider configured', sent_at: null });
  });
});

describe('push delivery in the running app', () => {
  it("delivers 'progress one day forward' through the job queue to FCM", async () => {
    const app = await createTestApp({
      clock,
      workers: true,
      env: { FCM_SERVICE_ACCOUNT_FILE: fake.writeServiceAccount(dir), FCM_API_URL: fake.url },
    });
    try {
      const { participant } = await makeEnrolledParticipant(app.ctx.database.db, {
        weeks: 1,
        perWeek: 3,
        started_date: '2025-03-01',
      });
      await app.ctx.database.db
        .update(participants)
        .set({ push_notification_id: 'token-live' })
        .where(eq(participants.participant_id, participant.participant_id));
      const { cookie } = await signedInCookie(app.ctx, 'basic access');
      const res = await app.app.inject({
        method: 'PATCH',
        url: `/api/participant/${participant.participant_id}/progress`,
        headers: { cookie },
        payload: {},
      });
      expect(res.json()).toEqual({ message: messages.progress.participantNotified });
      await waitUntil(async () => {
        const [row] = await app.ctx.database.db
          .select({ status: pushOutbox.status })
          .from(pushOutbox)
          .where(eq(pushOutbox.participant_id, participant.participant_id));
        return row?.status === s.sent;
      }, 'the message to be sent');
      expect(fake.received.at(-1)!.body).toMatchObject({
        message: {
          token: 'token-live',
          notification: { title: messages.reminders.newVideoTitle, body: messages.reminders.newVideoBody },
        },
      });
    } finally {
      await app.close();
    }
  });
});
