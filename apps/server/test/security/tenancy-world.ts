import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  assessmentResults,
  loginThrottle,
  organisations,
  outcomeMeasures,
  sites,
} from '../../src/db/schema.js';
import { programmeToday } from '../../src/lib/programme-day.js';
import { firstSite, insertDevice, issueDeviceToken, participantBody } from '../factories.js';
import { signedInCookie, type TestApp } from '../harness.js';
import { makeProgress, makeVideoSet, makeVideos } from '../programme-factories.js';

/**
 * The instance the tenancy test calls every route on: organisation A with sites A1 and A2, and
 * organisation B with its site, each with records of every kind, made the way staff and tablets
 * make them (through the API) so that every table holds something of each. Every name, address
 * and id of B's (and of A2's) records is known, to be looked for in whatever A's admins are
 * answered.
 */

/** One place's records: what a caller from elsewhere must never see or change. */
export interface Place {
  organisationId: number;
  siteId: number;
  participantId: number;
  deviceId: number;
  deviceUuid: string;
  progressId: number;
  setId: number;
  videoId: number;
  contactId: number;
  /** A result of an outcome measure recorded for the participant, with a note. */
  assessmentId: number;
  adminUserName: string;
  adminUserId: number;
  /** Organisation-level names: the device's and the set's (another site of the organisation sees them). */
  deviceName: string;
  setName: string;
  /** Every text of the place's records that nobody else should read (names, contact data, notes, uuids). */
  markers: string[];
  /** Its ids, by the JSON keys that carry them. */
  ids: Record<string, number[]>;
}

export interface TenancyWorld {
  /** Organisation A's full-access admin of every site (not a system administrator). */
  orgA: { cookie: string; place: Place };
  /** A full-access admin of A limited to site A1. */
  siteA1: { cookie: string };
  /** A tablet of a participant at A1. */
  tabletA1: {
    authorization: string;
    participantId: number;
    setId: number;
    progressId: number;
    videoId: number;
  };
  /** Site A2's records (seen by orgA, not by siteA1) and organisation B's (seen by neither). */
  a2: Place;
  b: Place;
}

const tag = () => randomBytes(4).toString('hex');

async function call(
  t: TestApp,
  cookie: string,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
) {
  const res = await t.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });
  if (res.statusCode >= 300) throw new Error(`tenancy seed: ${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, unknown>>();
}

/**
 * A place's records: a participant with every identifiable field (through the API, by an admin
 * of the place), their device and token, a programme on a set of the organisation's own with a
 * view reported by the tablet, a contact with a note, a message, a sign-in lock of the admin.
 */
async function seedPlace(
  t: TestApp,
  admin: { cookie: string; admin: { user_name: string; admin_user_id: number } },
  organisationId: number,
  siteId: number,
  name: string,
): Promise<Place> {
  const mark = tag();
  const device = await insertDevice(t.ctx, {
    organisation_id: organisationId,
    name: `${name} tablet ${mark}`,
  });
  const nhs = nhsNumber();
  const participant = await call(
    t,
    admin.cookie,
    'POST',
    '/api/participant',
    participantBody(device.uuid, {
      first_name: `${name}first${mark}`,
      last_name: `${name}last${mark}`,
      email: `${name}.${mark}@example.org`,
      address: `${mark} ${name} Lane, Elsewhere`,
      notes: `${name} private note ${mark}`,
      nhs_number: nhs,
      referring_healthcare_professional: `Dr ${name} ${mark}`,
      site_id: siteId,
    }),
  );
  const participantId = participant.participant_id as number;
  const set = await makeVideoSet(t.ctx.database.db, {
    weeks: 1,
    perWeek: 2,
    name: `${name} set ${mark}`,
    organisation_id: organisationId,
  });
  const [video] = await makeVideos(t.ctx.database.db, set);
  const progress = await makeProgress(t.ctx.database.db, participantId, set.fitness_video_set_id, {
    started_date: '2026-01-05',
  });
  const token = await issueDeviceToken(t.ctx, device.authorized_device_id, participantId);
  const view = await t.app.inject({
    method: 'POST',
    url: `/api/videoset/view/${set.fitness_video_set_id}/participant/${participantId}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { day: '1', week: '1', videoIds: [video!.video_id] },
  });
  if (view.statusCode !== 200) throw new Error(`tenancy seed: a view: ${view.statusCode} ${view.body}`);
  const contact = await call(t, admin.cookie, 'POST', `/api/participant/${participantId}/contacts`, {
    method: 'phone',
    outcome: 'no_answer',
    note: `${name} contact note ${mark}`,
  });
  await call(t, admin.cookie, 'POST', '/api/pushNotifications', {
    title: `${name} message ${mark}`,
    body: `${name} message body ${mark}`,
    participant_id: participantId,
  });
  await call(t, admin.cookie, 'GET', '/api/participant');
  // A sign-in lock of the place's admin.
  await t.ctx.database.db.insert(loginThrottle).values({
    user_name: admin.admin.user_name.toLowerCase(),
    source: '203.0.113.9',
    failures: 10,
    locked_until: new Date(Date.now() + 3_600_000),
  });
  // An outcome result with its note, as recorded (the tables' owner writes it: the walk's entry
  // through the API is outcomes.test.ts's).
  const [walk] = await t.ctx.database.db
    .select()
    .from(outcomeMeasures)
    .where(eq(outcomeMeasures.code, '6MWD'));
  const [assessment] = await t.ctx.database.db
    .insert(assessmentResults)
    .values({
      participant_id: participantId,
      measure_id: walk!.measure_id,
      timepoint: 'baseline',
      taken_on: programmeToday(t.ctx),
      value: 300,
      score: 300,
      note: `${name} assessment note ${mark}`,
      admin_user_name: admin.admin.user_name,
    })
    .returning();
  return {
    organisationId,
    siteId,
    participantId,
    deviceId: device.authorized_device_id,
    deviceUuid: device.uuid,
    progressId: progress.fitness_participation_progress_id,
    setId: set.fitness_video_set_id,
    videoId: video!.video_id,
    contactId: contact.contact_id as number,
    assessmentId: assessment!.assessment_id,
    adminUserName: admin.admin.user_name,
    adminUserId: admin.admin.admin_user_id,
    deviceName: device.name,
    setName: set.set_name,
    markers: [
      participant.first_name as string,
      participant.last_name as string,
      participant.email as string,
      participant.address as string,
      `${name} private note ${mark}`,
      `${name} contact note ${mark}`,
      `${name} assessment note ${mark}`,
      `${name} message ${mark}`,
      nhs,
      `Dr ${name} ${mark}`,
    ],
    ids: {
      participant_id: [participantId],
      participant_ids: [participantId],
      fitness_participation_progress_id: [progress.fitness_participation_progress_id],
      contact_id: [contact.contact_id as number],
      assessment_id: [assessment!.assessment_id],
    },
  };
}

/** A valid NHS number nobody else has (modulus 11). */
function nhsNumber(): string {
  for (;;) {
    const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
    const sum = digits.reduce((total, d, i) => total + d * (10 - i), 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return [...digits, check === 11 ? 0 : check].join('');
  }
}

export async function seedTenancy(t: TestApp): Promise<TenancyWorld> {
  const db = t.ctx.database.db;
  const { organisation_id: orgA, site_id: siteA1 } = await firstSite(db);
  const [a2] = await db
    .insert(sites)
    .values({ organisation_id: orgA, name: `A2 ${tag()}` })
    .returning({ site_id: sites.site_id });
  const system = await signedInCookie(t.ctx, 'full access', { system_administrator: true });
  const orgB = (
    await call(t, system.cookie, 'POST', '/api/organisations', {
      name: `Bravo Trust ${tag()}`,
      ods_code: `B${randomBytes(2).toString('hex').toUpperCase()}`,
    })
  ).organisation_id as number;
  const [siteB] = await db.select().from(sites).where(eq(sites.organisation_id, orgB));

  const adminA = await signedInCookie(t.ctx, 'full access', { system_administrator: false });
  const adminA1 = await signedInCookie(t.ctx, 'full access', {
    system_administrator: false,
    site_ids: [siteA1],
  });
  const adminB = await signedInCookie(t.ctx, 'full access', {
    organisation_id: orgB,
    system_administrator: false,
  });
  // An admin of A limited to A2 (an admin of the organisation, whose name A1 sees, but manages not).
  const adminA2 = await signedInCookie(t.ctx, 'basic access', { site_ids: [a2!.site_id] });

  const placeA1 = await seedPlace(t, adminA, orgA, siteA1, 'Alpha');
  const placeA2 = await seedPlace(t, { ...adminA2, cookie: adminA.cookie }, orgA, a2!.site_id, 'Atwo');
  const placeB = await seedPlace(t, adminB, orgB, siteB!.site_id, 'Bravo');
  // B's organisation and site themselves are B's, and its set, videos, device and admin.
  const [bravo] = await db
    .select({ name: organisations.name })
    .from(organisations)
    .where(eq(organisations.organisation_id, orgB));
  placeB.markers.push(
    bravo!.name,
    placeB.deviceUuid,
    placeB.deviceName,
    placeB.setName,
    adminB.admin.user_name,
  );
  placeB.ids = {
    ...placeB.ids,
    authorized_device_id: [placeB.deviceId],
    fitness_video_set_id: [placeB.setId],
    video_id: [placeB.videoId],
    admin_user_id: [adminB.admin.admin_user_id],
    organisation_id: [orgB],
    site_id: [siteB!.site_id],
  };

  const tokenA1 = await issueDeviceToken(t.ctx, placeA1.deviceId, placeA1.participantId);
  return {
    orgA: { cookie: adminA.cookie, place: placeA1 },
    siteA1: { cookie: adminA1.cookie },
    tabletA1: {
      authorization: `Bearer ${tokenA1}`,
      participantId: placeA1.participantId,
      setId: placeA1.setId,
      progressId: placeA1.progressId,
      videoId: placeA1.videoId,
    },
    a2: placeA2,
    b: placeB,
  };
}
