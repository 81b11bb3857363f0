import { eq } from 'drizzle-orm';
import { IDENTIFIABLE_FIELDS } from '@pathway/contract';
import { assessmentResults, outcomeMeasures } from '../../src/db/schema.js';
import { programmeToday } from '../../src/lib/programme-day.js';
import { createAdmin, signedInCookie, type TestApp } from '../harness.js';
import { randomBytes } from 'node:crypto';
import { sites } from '../../src/db/schema.js';
import { addParticipant, firstSite, insertParticipants, issueDeviceToken } from '../factories.js';
import {
  makeDevice,
  makeEnrolledParticipant,
  makeProgress,
  makeVideoSet,
  makeVideos,
  randomDeviceUuid,
} from '../programme-factories.js';
import { logFileNameFor } from '../../src/logging.js';
import { totpCode } from '../../src/modules/auth/totp.js';
import type { Caller, World } from './authorization-matrix.js';

export interface SeededWorld {
  world: World;
  /** Headers that make a request come from each kind of caller. */
  credentials: Record<Caller, Record<string, string>>;
  /** The seeded participants' identifiable values: none may reach a basic-access admin. */
  identifiableValues: string[];
}

/**
 * The programme the security tests call routes on: one participant with every identifiable field
 * filled in (added through the API, as staff add them), a device with a bearer token, a video set
 * with videos and progress on it, a second enrolled tablet, and makers of throwaway rows.
 */
export async function seedWorld(t: TestApp): Promise<SeededWorld> {
  const site = await firstSite(t.ctx.database.db);
  const full = await signedInCookie(t.ctx, 'full access', { system_administrator: false });
  const system = await signedInCookie(t.ctx, 'full access', { system_administrator: true });
  const basic = await signedInCookie(t.ctx, 'basic access');
  const set = await makeVideoSet(t.ctx.database.db, { weeks: 2, perWeek: 2 });
  const videos = await makeVideos(t.ctx.database.db, set);
  const { participant, device } = await addParticipant(t, full.cookie, {
    notes: 'Seeded note about knees',
    phone_number_secondary: '+447700900456',
  });
  const progress = await makeProgress(
    t.ctx.database.db,
    participant.participant_id,
    set.fitness_video_set_id,
    {
      started_date: '2026-01-05',
    },
  );
  const token = await issueDeviceToken(t.ctx, device.authorized_device_id, participant.participant_id);
  const other = await makeEnrolledParticipant(t.ctx.database.db, { set, started_date: '2026-01-05' });

  const referral = await t.app.inject({
    url: `/api/participant/${participant.participant_id}/referral`,
    headers: { cookie: full.cookie },
  });
  const referralAnswer = referral.json<Record<string, unknown>>();
  // A result with a note and an amendment with a reason: free text only full access may read.
  const [sixMinuteWalk] = await t.ctx.database.db
    .select()
    .from(outcomeMeasures)
    .where(eq(outcomeMeasures.code, '6MWD'));
  const [seededResult] = await t.ctx.database.db
    .insert(assessmentResults)
    .values({
      participant_id: participant.participant_id,
      measure_id: sixMinuteWalk!.measure_id,
      timepoint: 'baseline',
      taken_on: programmeToday(t.ctx),
      value: 300,
      score: 300,
      note: 'Seeded outcome note about breathlessness',
      admin_user_name: 'world',
    })
    .returning();
  await t.ctx.database.db.insert(assessmentResults).values({
    participant_id: participant.participant_id,
    measure_id: sixMinuteWalk!.measure_id,
    timepoint: 'baseline',
    taken_on: programmeToday(t.ctx),
    value: 310,
    score: 310,
    amends: seededResult!.assessment_id,
    reason: 'Seeded amendment reason about a typing slip',
    admin_user_name: 'world',
  });
  const identifiableValues = [
    // Every identifiable field of the contract's list, from the participant or their referral;
    // yes/no answers and short values (a two-letter role) would match ordinary text.
    ...IDENTIFIABLE_FIELDS.map((field) => participant[field] ?? referralAnswer[field]).filter(
      (v): v is string => typeof v === 'string' && v.length > 3,
    ),
    'Seeded outcome note about breathlessness',
    'Seeded amendment reason about a typing slip',
    other.participant.first_name,
    other.participant.last_name,
    // The whole uuid of an assigned device: with it, call 1 answers the participant's name.
    device.uuid,
    other.device.uuid,
  ];

  const world: World = {
    participantId: participant.participant_id,
    deviceUuid: device.uuid,
    deviceId: device.authorized_device_id,
    setId: set.fitness_video_set_id,
    videoId: videos[0]!.video_id,
    videoLocation: videos[0]!.file_location_path,
    progressId: progress.fitness_participation_progress_id,
    otherDeviceUuid: other.device.uuid,
    logFileName: logFileNameFor(new Date()),
    today: programmeToday(t.ctx),
    freshParticipantId: async () => (await insertParticipants(t.ctx, [{}]))[0]!,
    freshDevice: async () => {
      const d = await makeDevice(t.ctx.database.db);
      return { id: d.authorized_device_id, uuid: d.uuid };
    },
    freshSetId: async () =>
      (await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 1 })).fitness_video_set_id,
    freshVideoId: async () =>
      (
        await makeVideos(t.ctx.database.db, await makeVideoSet(t.ctx.database.db, { weeks: 1, perWeek: 1 }))
      )[0]!.video_id,
    freshAdminUserName: async () => (await createAdmin(t.ctx, 'basic access')).user_name,
    organisationId: site.organisation_id,
    freshOrganisationName: () => `Organisation ${randomBytes(4).toString('hex')}`,
    freshSiteId: async () =>
      (
        await t.ctx.database.db
          .insert(sites)
          .values({ organisation_id: site.organisation_id, name: `Site ${randomBytes(4).toString('hex')}` })
          .returning()
      )[0]!.site_id,
    freshMeasureId: async () => {
      const [row] = await t.ctx.database.db
        .insert(outcomeMeasures)
        .values({
          code: `W${randomDeviceUuid()}`,
          name: 'World measure',
          kind: 'numeric',
          unit: 'm',
          min: 0,
          max: 100,
          higher_is_better: true,
        })
        .returning();
      return row!.measure_id;
    },
    freshAssessmentId: async () => {
      const [measure] = await t.ctx.database.db
        .select()
        .from(outcomeMeasures)
        .where(eq(outcomeMeasures.code, '6MWD'));
      const [row] = await t.ctx.database.db
        .insert(assessmentResults)
        .values({
          participant_id: participant.participant_id,
          measure_id: measure!.measure_id,
          timepoint: 'baseline',
          taken_on: programmeToday(t.ctx),
          value: 300,
          score: 300,
          admin_user_name: 'world',
        })
        .returning();
      return row!.assessment_id;
    },
    freshUuid: randomDeviceUuid,
    freshLogin: async () => {
      const admin = await createAdmin(t.ctx, 'basic access');
      return {
        user_name: admin.user_name,
        password: admin.password,
        mfa_token: totpCode(admin.user_name, admin.totpSecret, new Date()),
      };
    },
  };
  return {
    world,
    credentials: {
      anonymous: {},
      basic: { cookie: basic.cookie },
      full: { cookie: full.cookie },
      system: { cookie: system.cookie },
      device: { authorization: `Bearer ${token}` },
    },
    identifiableValues,
  };
}
