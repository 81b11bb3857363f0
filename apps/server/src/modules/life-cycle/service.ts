import { and, eq, sql } from 'drizzle-orm';
import { NO_DEVICE, messages, type DischargeInput } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import {
  authorizedDevices,
  participantAdherence,
  participants,
  participationProgress,
  pushOutbox,
} from '../../db/schema.js';
import { badRequest, conflict } from '../../lib/http-error.js';
import { programmeToday } from '../../lib/programme-day.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { closeAssignment, revokeDeviceTokens } from '../devices/index.js';
import { lockParticipant } from '../participants/index.js';

/**
 * Discharge and re-referral. A discharge is one transaction: the status and
 * its date, reason and note; the device detached (its assignment closed, its tokens revoked, its
 * push token forgotten) so that the tablet's call 1 answers as for an unassigned device and the
 * device is available again; queued messages to the participant marked not sent. The daily check,
 * the push sender, the progress cards and the grid's default view all leave out a participant who
 * is not active, and their programme position stays as it was (nothing writes it while discharged).
 */
export class LifeCycleService {
  private readonly audit: AuditService;

  constructor(private readonly ctx: AppContext) {
    this.audit = new AuditService(ctx.db);
  }

  async discharge(id: number, body: DischargeInput, actor: AuditActor): Promise<void> {
    const today = programmeToday(this.ctx);
    const dischargedOn = body.discharged_on ?? today;
    if (dischargedOn > today) throw badRequest(messages.lifeCycle.dateInFuture);
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const current = await lockParticipant(tx, id);
      if (current.status !== 'active') throw conflict(messages.lifeCycle.alreadyDischarged);
      if (dischargedOn < current.created_at.toISOString().slice(0, 10)) {
        throw badRequest(messages.lifeCycle.dateBeforeRegistration);
      }
      const deviceId = current.authorized_device_id;
      if (deviceId !== null) {
        await revokeDeviceTokens(tx, deviceId, id);
        // The tablet reports its push token again on its next start, for whoever has it next.
        await tx
          .update(authorizedDevices)
          .set({ push_notification_id: null })
          .where(eq(authorizedDevices.authorized_device_id, deviceId));
        await closeAssignment(tx, id, now);
      }
      await tx
        .update(participants)
        .set({
          status: body.outcome,
          discharged_on: dischargedOn,
          discharge_reason: body.outcome === 'withdrawn' ? (body.reason ?? null) : null,
          discharge_note: body.note ?? null,
          authorized_device_id: null,
          push_notification_id: NO_DEVICE,
          updated_at: now,
        })
        .where(eq(participants.participant_id, id));
      // Nothing queued for them goes out (the sender also skips anyone not active).
      await tx
        .update(pushOutbox)
        .set({ status: messages.push.discharged, next_attempt_at: null })
        .where(and(eq(pushOutbox.participant_id, id), eq(pushOutbox.status, messages.push.queued)));
      await this.audit.record(
        actor,
        {
          action: 'participant.discharge',
          participantId: id,
          detail: [
            `outcome ${body.outcome}`,
            body.outcome === 'withdrawn' ? `reason ${body.reason}` : null,
            `discharged on ${dischargedOn}`,
            deviceId !== null ? 'device detached' : null,
            body.note ? 'note' : null,
          ]
            .filter(Boolean)
            .join(', '),
        },
        tx,
      );
    });
  }

  /**
   * Makes a discharged participant active again. Their old programme (position frozen at the
   * discharge) ends here: a programme and a device are chosen again as for a new participant, so
   * the daily check does not count the months away as days behind. Views, messages, contacts and
   * device history stay.
   */
  async rerefer(id: number, actor: AuditActor): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const current = await lockParticipant(tx, id);
      if (current.status === 'active') throw conflict(messages.lifeCycle.notDischarged);
      const removed = await tx
        .delete(participationProgress)
        .where(eq(participationProgress.participant_id, id))
        .returning({ id: participationProgress.fitness_participation_progress_id });
      await tx
        .update(participantAdherence)
        .set({ days_behind: 0 })
        .where(
          and(eq(participantAdherence.participant_id, id), sql`${participantAdherence.days_behind} <> 0`),
        );
      await tx
        .update(participants)
        .set({
          status: 'active',
          discharged_on: null,
          discharge_reason: null,
          discharge_note: null,
          updated_at: now,
        })
        .where(eq(participants.participant_id, id));
      await this.audit.record(
        actor,
        {
          action: 'participant.rerefer',
          participantId: id,
          detail: `was ${current.status} from ${current.discharged_on}${removed.length > 0 ? ', programme ended' : ''}`,
        },
        tx,
      );
    });
  }
}
