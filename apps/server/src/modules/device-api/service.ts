import { randomBytes } from 'node:crypto';
import { and, desc, eq, notInArray } from 'drizzle-orm';
import { messages, positionIndex, type ProgressSummary } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { authorizedDevices, deviceTokens, participants } from '../../db/schema.js';
import { HttpError, forbidden, notFound } from '../../lib/http-error.js';
import { hashDeviceToken, type DeviceCaller } from '../../plugins/access.js';
import {
  findProgressById,
  findProgressOfParticipant,
  listVideosOfSet,
  type ProgressWithSet,
  type VideoRow,
} from '../progress/repository.js';
import { ProgressService } from '../progress/service.js';
import { recordViews } from '../progress/views.js';

const m = messages.deviceApi;

/** Tokens kept per device pairing; the app uses the newest, older ones are from earlier starts. */
const TOKENS_KEPT = 20;

export interface Registration {
  token: string;
  participant: { participant_id: number; first_name: string; last_name: string; purge_cache: boolean };
  deviceUuid: string;
  progress: ProgressWithSet;
  videos: VideoRow[];
}

/**
 * The tablet app's side of the programme (device-api.md). The app identifies itself by its
 * Android ID once (call 1) and then by the bearer token that call issued; every call is limited
 * to the participant the device is assigned to.
 */
export class DeviceApiService {
  private readonly progress: ProgressService;

  constructor(private readonly ctx: AppContext) {
    this.progress = new ProgressService(ctx);
  }

  /** Call 1: a new token for a registered, assigned device whose participant has a programme. */
  async register(deviceUuid: string, ip: string): Promise<Registration> {
    const token = randomBytes(32).toString('base64url');
    const registration = await this.ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ device: authorizedDevices, participant: participants })
        .from(authorizedDevices)
        .leftJoin(participants, eq(participants.authorized_device_id, authorizedDevices.authorized_device_id))
        .where(eq(authorizedDevices.uuid, deviceUuid));
      if (!row) throw notFound(m.notRegistered);
      if (!row.participant) throw notFound(m.notAssigned);
      const progress = await findProgressOfParticipant(tx, row.participant.participant_id);
      if (!progress) throw notFound(m.noProgramme);

      const pairing = and(
        eq(deviceTokens.authorized_device_id, row.device.authorized_device_id),
        eq(deviceTokens.participant_id, row.participant.participant_id),
      );
      await tx.insert(deviceTokens).values({
        token_hash: hashDeviceToken(token),
        authorized_device_id: row.device.authorized_device_id,
        participant_id: row.participant.participant_id,
        created_at: this.ctx.clock.now(),
      });
      const kept = tx
        .select({ token_hash: deviceTokens.token_hash })
        .from(deviceTokens)
        .where(pairing)
        .orderBy(desc(deviceTokens.created_at))
        .limit(TOKENS_KEPT);
      await tx.delete(deviceTokens).where(and(pairing, notInArray(deviceTokens.token_hash, kept)));
      await tx
        .update(participants)
        .set({ last_ip_address: ip })
        .where(eq(participants.participant_id, row.participant.participant_id));
      return { participant: row.participant, progress };
    });
    return {
      token,
      participant: registration.participant,
      deviceUuid,
      progress: registration.progress,
      videos: await listVideosOfSet(this.ctx.db, registration.progress.set.fitness_video_set_id),
    };
  }

  /** Call 2: the app's FCM token, kept on the device and on its participant. */
  async savePushToken(deviceUuid: string, pushToken: string, ip: string): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const [device] = await tx
        .update(authorizedDevices)
        .set({ push_notification_id: pushToken })
        .where(eq(authorizedDevices.uuid, deviceUuid))
        .returning({ id: authorizedDevices.authorized_device_id });
      if (!device) throw notFound(m.notRegistered);
      await tx
        .update(participants)
        .set({ push_notification_id: pushToken, last_ip_address: ip })
        .where(eq(participants.authorized_device_id, device.id));
    });
  }

  /** Call 4: the videos the participant may play today: every day up to their current position. */
  async todaysVideos(caller: DeviceCaller, videoSetId: number, participantId: number) {
    const { progress, set } = await this.ownProgress(caller, participantId, videoSetId);
    const upTo = positionIndex({ week: progress.current_week, day: progress.current_day }, set);
    const all = await listVideosOfSet(this.ctx.db, set.fitness_video_set_id);
    return {
      set,
      videos: all.filter((v) => positionIndex({ week: v.week_number, day: v.day_number }, set) <= upTo),
    };
  }

  /** Call 5. */
  async progressById(caller: DeviceCaller, progressId: number) {
    const found = await findProgressById(this.ctx.db, progressId);
    if (!found) throw notFound(messages.progress.none);
    if (found.progress.participant_id !== caller.participantId) throw forbidden(m.otherParticipant);
    return found.progress;
  }

  /** Call 7. */
  async summary(caller: DeviceCaller, videoSetId: number, participantId: number): Promise<ProgressSummary> {
    this.assertOwn(caller, participantId);
    return this.progress.summary(videoSetId, participantId);
  }

  /** Call 8. */
  async reportViews(caller: DeviceCaller, videoSetId: number, participantId: number, videoIds: number[]) {
    this.assertOwn(caller, participantId);
    return recordViews(this.ctx, participantId, videoSetId, videoIds);
  }

  private assertOwn(caller: DeviceCaller, participantId: number): void {
    if (caller.participantId !== participantId) throw forbidden(m.otherParticipant);
  }

  private async ownProgress(
    caller: DeviceCaller,
    participantId: number,
    videoSetId: number,
  ): Promise<ProgressWithSet> {
    this.assertOwn(caller, participantId);
    const found = await findProgressOfParticipant(this.ctx.db, participantId);
    if (!found) throw new HttpError(404, m.noProgramme);
    if (found.set.fitness_video_set_id !== videoSetId) throw notFound(messages.progress.notInSet);
    return found;
  }
}
