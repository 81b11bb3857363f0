import { eq } from 'drizzle-orm';
import { NO_DEVICE, messages, type PushNotificationInput } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { authorizedDevices, participants } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { assertActiveParticipant } from '../participants/index.js';
import { enqueuePush } from './outbox.js';

/**
 * Message user: queues a push to the tablet of the participant who holds device `uuid` (or of
 * participant `participant_id`), audited in the same transaction.
 */
export async function queueStaffMessage(
  db: Database,
  audit: AuditService,
  body: PushNotificationInput,
  staff: AuditActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [target] = await tx
      .select({
        authorized_device_id: authorizedDevices.authorized_device_id,
        participant_id: participants.participant_id,
        push_notification_id: participants.push_notification_id,
      })
      .from(authorizedDevices)
      .leftJoin(participants, eq(participants.authorized_device_id, authorizedDevices.authorized_device_id))
      .where(
        body.participant_id !== undefined
          ? eq(participants.participant_id, body.participant_id)
          : eq(authorizedDevices.uuid, body.uuid!),
      );
    if (!target) {
      if (body.participant_id === undefined) throw notFound(messages.device.notFound);
      const [exists] = await tx
        .select({ id: participants.participant_id })
        .from(participants)
        .where(eq(participants.participant_id, body.participant_id));
      throw exists ? conflict(messages.progress.noDevice) : notFound(messages.participant.notFound);
    }
    if (target.participant_id === null) throw conflict(messages.device.notAssigned);
    await assertActiveParticipant(tx, target.participant_id);
    const token =
      target.push_notification_id && target.push_notification_id !== NO_DEVICE
        ? target.push_notification_id
        : null;
    await enqueuePush(tx, {
      participantId: target.participant_id,
      targetToken: token,
      title: body.title,
      body: body.body,
      kind: 'manual',
      createdBy: staff.adminUserId,
    });
    await audit.record(staff, { action: 'message.send', participantId: target.participant_id }, tx);
  });
}
