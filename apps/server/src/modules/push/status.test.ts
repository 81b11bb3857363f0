import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@pathway/contract';
import { PushDelivery } from './delivery.js';
import { createTestApp, signedInCookie, type TestApp } from '../../../test/harness.js';
import { makeEnrolledParticipant } from '../../../test/programme-factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('push message status', () => {
  it('shows staff what became of each message; only full access sees what was written', async () => {
    const { participant } = await makeEnrolledParticipant(t.ctx.database.db, {
      weeks: 1,
      perWeek: 2,
      started_date: '2025-01-01',
    });
    const full = (await signedInCookie(t.ctx, 'full access')).cookie;
    const basic = (await signedInCookie(t.ctx, 'basic access')).cookie;
    await t.app.inject({
      method: 'PATCH',
      url: `/api/participant/${participant.participant_id}/progress`,
      headers: { cookie: basic },
      payload: {},
    });
    await new PushDelivery(t.ctx, null).deliverDue();

    const url = `/api/pushNotifications/participant/${participant.participant_id}`;
    const forFull = (await t.app.inject({ method: 'GET', url, headers: { cookie: full } })).json();
    expect(forFull).toEqual([
      expect.objectContaining({
        kind: 'progress-forward',
        title: messages.reminders.newVideoTitle,
        body: messages.reminders.newVideoBody,
        status: 'not sent: no provider configured',
        attempts: 1,
        sent_at: null,
      }),
    ]);
    const forBasic = (await t.app.inject({ method: 'GET', url, headers: { cookie: basic } })).json();
    expect(forBasic[0]).not.toHaveProperty('title');
    expect(forBasic[0]).not.toHaveProperty('body');
    expect(forBasic[0].status).toBe('not sent: no provider configured');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/pushNotifications/participant/999999',
          headers: { cookie: full },
        })
      ).statusCode,
    ).toBe(404);
  });
});
