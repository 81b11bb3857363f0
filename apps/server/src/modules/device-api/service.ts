import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import { messages, type ProgressSummary } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { authorizedDevices, deviceSignIns, deviceTokens, participants, videos } from '../../db/schema.js';
import { HttpError, forbidden, notFound } from '../../lib/http-error.js';
import { hashDeviceToken, type DeviceCaller } from '../../plugins/access.js';
import {
  findProgressById,
  findProgressOfParticipant,
  ProgressService,
  type ProgressWithSet,
  recordViews,
} from '../progress/index.js';
import { registrationJson } from './presenter.js';
import { signInDevice } from './repository.js';
import { ProgrammeVideoCache } from './video-cache.js';

const m = messages.deviceApi;

/** A new address for a tablet whose token was in use this recently is flagged to staff. */
export const SIGN_IN_FLAG_WINDOW_MS = 60 * 60_000;

export const SIGN_IN_KINDS = { tokenIssued: 'token issued', pushTokenChanged: 'push token changed' } as const;

/** Call 1's answer, written as JSON (device-api.md) with the set's video list kept per version. */
export interface Registration {
  participantId: number;
  json: Buffer;
}

/**
 * Ends the tokens nobody has used for DEVICE_TOKEN_IDLE_DAYS, and revoked ones: this bounds the
 * table, where a count cap would let any caller of call 1 push the real tablet's token out.
 * Called by the daily job.
 */
export async function pruneExpiredDeviceTokens(db: Database, now: Date, idleDays = 90): Promise<number> {
  const idleSince = new Date(now.getTime() - idleDays * 86_400_000);
  const removed = await db
    .delete(deviceTokens)
    .where(
      or(
        isNotNull(deviceTokens.revoked_at),
        lt(sql`coalesce(${deviceTokens.last_used_at}, ${deviceTokens.created_at})`, idleSince),
      ),
    )
    .returning({ token_hash: deviceTokens.token_hash });
  return removed.length;
}

/**
 * The tablet app's side of the programme (device-api.md). The app identifies itself by its
 * Android ID once (call 1) and then by the bearer token that call issued; every call is limited
 * to the participant the device is assigned to.
 */
export class DeviceApiService {
  private readonly progress: ProgressService;
  private readonly videoLists: ProgrammeVideoCache;

  constructor(private readonly ctx: AppContext) {
    this.progress = new ProgressService(ctx);
    this.videoLists = new ProgrammeVideoCache(ctx.db);
  }

  /**
   * Call 1: a new token for a registered, assigned device whose participant has a programme.
   * Anyone can make this call with a device id, so it changes nothing the real tablet relies on:
   * earlier tokens stay valid and the participant's address is left alone. The sign-in is
   * recorded for full-access staff, flagged when it comes from a new address while the tablet's
   * token was in use within the hour. The answer is call 1's JSON for `origin`.
   */
  async register(deviceUuid: string, ip: string, origin: string): Promise<Registration> {
    const token = randomBytes(32).toString('base64url');
    const now = this.ctx.clock.now();
    // One statement: the reads, and only when they all find something, the token, the sign-in
    // record and the contact time (repository.ts).
    const found = await signInDevice(this.ctx.db, {
      deviceUuid,
      recentUse: new Date(now.getTime() - SIGN_IN_FLAG_WINDOW_MS),
      tokenHash: hashDeviceToken(token),
      now,
      ip,
      kind: SIGN_IN_KINDS.tokenIssued,
    });
    if (!found) throw notFound(m.notRegistered);
    if (!found.participant) throw notFound(m.notAssigned);
    if (!found.programme) throw notFound(m.noProgramme);
    if (found.flagged)
      this.ctx.logger.warn(
        { authorized_device_id: found.deviceId },
        'tablet sign-in from a new address while in use',
      );
    const { set } = found.programme;
    const videos = await this.videoLists.json(set.fitness_video_set_id, set.videos_version, origin);
    return {
      participantId: found.participant.participant_id,
      json: registrationJson(
        { token, deviceUuid, participant: found.participant, programme: found.programme },
        videos,
      ),
    };
  }

  /**
   * Call 2: the app's FCM token, kept on the device and on its participant. The app sends no
   * token with it (its limit, not ours), so it is rate limited like call 1 and each change is
   * recorded beside the sign-ins.
   */
  async savePushToken(deviceUuid: string, pushToken: string, ip: string): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (tx) => {
      const [device] = await tx
        .select({
          id: authorizedDevices.authorized_device_id,
          push_notification_id: authorizedDevices.push_notification_id,
          organisation_id: authorizedDevices.organisation_id,
          participant_id: participants.participant_id,
        })
        .from(authorizedDevices)
        .leftJoin(participants, eq(participants.authorized_device_id, authorizedDevices.authorized_device_id))
        .where(eq(authorizedDevices.uuid, deviceUuid))
        .for('update', { of: authorizedDevices });
      if (!device) throw notFound(m.notRegistered);
      if (device.participant_id !== null) {
        await tx
          .update(participants)
          .set({ push_notification_id: pushToken, tablet_last_contact_at: now })
          .where(eq(participants.participant_id, device.participant_id));
      }
      if (device.push_notification_id === pushToken) return;
      await tx
        .update(authorizedDevices)
        .set({ push_notification_id: pushToken })
        .where(eq(authorizedDevices.authorized_device_id, device.id));
      await tx.insert(deviceSignIns).values({
        kind: SIGN_IN_KINDS.pushTokenChanged,
        authorized_device_id: device.id,
        device_uuid: deviceUuid,
        participant_id: device.participant_id,
        ip_address: ip,
        created_at: now,
        organisation_id: device.organisation_id,
      });
    });
  }

  /**
   * Call 4: today's session, the video of the participant's current day and nothing else (the
   * app puts every video of the answer on today's tile). A position only points at a day with a
   * video (see the progress rules), so the answer is never empty.
   */
  async todaysVideos(caller: DeviceCaller, videoSetId: number, participantId: number) {
    const { progress, set } = await this.ownProgress(caller, participantId, videoSetId);
    const today = await this.ctx.db
      .select()
      .from(videos)
      .where(
        and(
          eq(videos.fitness_video_set_id, set.fitness_video_set_id),
          eq(videos.week_number, progress.current_week),
          eq(videos.day_number, progress.current_day),
        ),
      );
    return { set, videos: today };
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
