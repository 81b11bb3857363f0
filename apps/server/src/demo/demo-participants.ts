import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  addDays,
  calendarDate,
  dailyCheck,
  daysBehind,
  daysPassed,
  exerciseDaysInProgramme,
  messages,
  missedDays,
  NO_DEVICE,
  percentageProgress,
  positionAt,
  positionIndex,
  shouldSeenByNow,
  type Language,
  type Position,
  type SetShape,
  type WithdrawalReason,
} from '@pathway/contract';
import type { Database } from '../db/client.js';
import {
  adherenceRuns,
  assessmentResults,
  assessmentSchedules,
  authorizedDevices,
  dailyViews,
  deviceSignIns,
  deviceTokens,
  participantAdherence,
  participantFollowup,
  outcomeMeasures,
  participants,
  participationProgress,
  pushOutbox,
  seenVideos,
} from '../db/schema.js';
import { SIGN_IN_KINDS } from '../modules/device-api/index.js';
import { closeAssignment, openAssignment } from '../modules/devices/index.js';
import { hashDeviceToken } from '../plugins/access.js';

/** A deterministic random source (mulberry32), so the same seed gives the same programme. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DemoSet {
  fitness_video_set_id: number;
  shape: SetShape;
  /** Video ids by position index (1-based; index 0 unused). */
  videoIdAt: (number | undefined)[];
}

/** How a demo participant watches: the chance of watching the day's video, by how far in they are. */
type Habit = 'diligent' | 'steady' | 'slipping' | 'lapsed';
const watchChance: Record<Habit, (fractionDone: number, day: number) => number> = {
  diligent: () => 0.97,
  steady: () => 0.75,
  slipping: (f) => (f < 0.4 ? 0.85 : 0.3),
  lapsed: (_f, day) => (day < 5 ? 0.9 : 0),
};

/**
 * What the participant's tablet does: calls every day with its push token registered (the
 * default), went quiet after the participant's last view, has Firebase refusing its last two
 * reminders, or had its token cleared by Firebase ("no longer registered").
 */
type Tablet = 'calling' | 'silent' | 'failing' | 'unregistered';

interface Cast {
  habit: Habit | 'no-programme' | 'no-device';
  startedDaysAgo?: number;
  /** Without a programme: registered this many days ago (1 by default). */
  registeredDaysAgo?: number;
  set?: number;
  tablet?: Tablet;
  /** Discharged this many days ago (their programme stops then), completed or withdrawn. */
  discharged?:
    | { daysAgo: number; outcome: 'completed' }
    | { daysAgo: number; outcome: 'withdrawn'; reason: WithdrawalReason };
}

/**
 * Who the demo programme has: every adherence state, tablets calling, silent or failing,
 * programmes finished, newcomers, people waiting for a tablet, and people discharged.
 */
const CAST: Cast[] = [
  { habit: 'diligent', startedDaysAgo: 3, set: 0 },
  { habit: 'diligent', startedDaysAgo: 11, set: 0 },
  { habit: 'diligent', startedDaysAgo: 19, set: 1 },
  { habit: 'diligent', startedDaysAgo: 26, set: 1, tablet: 'failing' },
  { habit: 'diligent', startedDaysAgo: 33, set: 0 },
  { habit: 'diligent', startedDaysAgo: 40, set: 0 },
  { habit: 'steady', startedDaysAgo: 9, set: 1 },
  { habit: 'steady', startedDaysAgo: 16, set: 0 },
  { habit: 'steady', startedDaysAgo: 23, set: 1, tablet: 'unregistered' },
  { habit: 'steady', startedDaysAgo: 30, set: 1 },
  { habit: 'steady', startedDaysAgo: 37, set: 0 },
  { habit: 'slipping', startedDaysAgo: 14, set: 0 },
  { habit: 'slipping', startedDaysAgo: 21, set: 1 },
  { habit: 'slipping', startedDaysAgo: 28, set: 1 },
  { habit: 'slipping', startedDaysAgo: 35, set: 0 },
  { habit: 'lapsed', startedDaysAgo: 18, set: 1, tablet: 'silent' },
  { habit: 'lapsed', startedDaysAgo: 25, set: 0, tablet: 'silent' },
  { habit: 'lapsed', startedDaysAgo: 31, set: 1 },
  { habit: 'no-programme' },
  { habit: 'no-programme', registeredDaysAgo: 4 },
  { habit: 'no-device' },
  { habit: 'no-device', registeredDaysAgo: 6 },
  { habit: 'diligent', startedDaysAgo: 62, set: 0, discharged: { daysAgo: 30, outcome: 'completed' } },
  {
    habit: 'lapsed',
    startedDaysAgo: 45,
    set: 1,
    discharged: { daysAgo: 20, outcome: 'withdrawn', reason: 'lost_interest' },
  },
];
const SPARE_DEVICES = 3;

const FIRST_NAMES = [
  'Margaret',
  'David',
  'Susan',
  'Peter',
  'Janet',
  'Graham',
  'Aisha',
  'Tomasz',
  'Priya',
  'Colin',
  'Linda',
  'Mohammed',
  'Eileen',
  'Kwame',
  'Brenda',
  'Rajesh',
  'Sheila',
  'Patrick',
  'Fatima',
  'Roy',
  'Hannah',
  'Dennis',
];
const LAST_NAMES = [
  'Hughes',
  'Okafor',
  'Walsh',
  'Kowalski',
  'Patel',
  'Thompson',
  'Begum',
  'Murray',
  'Evans',
  'Ahmed',
  'Clarke',
  'Nowak',
  'Reid',
  'Mensah',
  'Shah',
  'Doherty',
  'Price',
  'Khan',
  'Wood',
  'Fraser',
  'Lloyd',
  'Barnes',
];
const STREETS = [
  'Elm Grove',
  'Mill Lane',
  'Station Road',
  'Church Street',
  'Park Avenue',
  'Victoria Terrace',
  'Oak Close',
  'Queens Road',
];
const TOWNS = [
  'Leeds LS6',
  'Bradford BD9',
  'Wakefield WF1',
  'Harrogate HG2',
  'Huddersfield HD1',
  'York YO10',
];
/** Typed as the form's 21 choices, so the demo cannot hold a language the server would refuse. */
const DEMO_LANGUAGES: Language[] = [
  'English',
  'English',
  'English',
  'Polish',
  'Urdu',
  'Bengali',
  'Gujarati',
  'English',
  'Arabic',
];
const ORGANISATIONS = [
  'Leeds Teaching Hospitals NHS Trust',
  'Bradford District Care NHS Foundation Trust',
  'Yorkshire Vascular Service',
];
const PROFESSIONALS: [string, string][] = [
  ['Dr Helen Marsh', 'Vascular consultant'],
  ['Sam Greene', 'Physiotherapist'],
  ['Dr Anil Rao', 'General practitioner'],
  ['Joanne Pike', 'Vascular nurse specialist'],
];

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

export interface DemoParticipantsReport {
  participants: number;
  devices: number;
  views: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const at = (date: string, time: string) => new Date(`${date}T${time}Z`);
const FCM_REFUSED = 'INVALID_ARGUMENT: The registration token is not a valid FCM registration token';
const FCM_UNREGISTERED = 'UNREGISTERED: Requested entity was not found.';

/**
 * Devices, participants with referrals, and their programme history up to `today`: each
 * participant lives through their days by the programme rules (`dailyCheck`), watching as their
 * habit says, so positions, days behind, percentages, the views rollup and the follow-up
 * worklist's facts agree with what the daily check would have made of them. Their tablets sign
 * in, register a push token and call as the device API records it, and the daily reminders went
 * out through Firebase (sent, or refused for the tablets whose reminders fail).
 */
export async function seedDemoParticipants(
  tx: Database,
  options: {
    sets: DemoSet[];
    today: string;
    now: Date;
    timeZone: string;
    seed?: number;
    /** Where the demo programme runs: its site, and the site's organisation (its devices). */
    site: { site_id: number; organisation_id: number };
  },
): Promise<DemoParticipantsReport> {
  const rng = seededRandom(options.seed ?? 20_251_121);
  const { today, now } = options;
  let views = 0;
  let devicesMade = 0;
  const seenRows: (typeof seenVideos.$inferInsert)[] = [];
  const messagesSent: (typeof pushOutbox.$inferInsert)[] = [];

  const newDevice = async (n: number) => {
    const [device] = await tx
      .insert(authorizedDevices)
      .values({
        name: `Programme tablet ${String(n).padStart(2, '0')}`,
        uuid: randomBytes(8).toString('hex'),
        organisation_id: options.site.organisation_id,
        created_at: now,
      })
      .returning();
    devicesMade++;
    return device!;
  };

  const walkMeasureId = await scheduleDemoAssessments(tx, options.sets);

  for (const [i, member] of CAST.entries()) {
    const device = member.habit === 'no-device' ? null : await newDevice(i + 1);
    const [professional, role] = pick(rng, PROFESSIONALS);
    // Registered on the morning their programme started, or some days ago and still waiting.
    const registeredAt =
      member.startedDaysAgo !== undefined
        ? at(addDays(today, -member.startedDaysAgo), '08:30:00')
        : new Date(now.getTime() - (member.registeredDaysAgo ?? 1) * DAY_MS - 3 * HOUR_MS);
    const [participant] = await tx
      .insert(participants)
      .values({
        first_name: FIRST_NAMES[i % FIRST_NAMES.length]!,
        last_name: LAST_NAMES[(i * 7) % LAST_NAMES.length]!,
        gender: i % 2 === 0 ? 'female' : 'male',
        date_of_birth: `${1940 + Math.floor(rng() * 30)}-${String(1 + Math.floor(rng() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rng() * 28)).padStart(2, '0')}`,
        email: i % 3 === 0 ? null : `demo.participant${i + 1}@example.org`,
        // Ofcom's range for drama: these numbers never ring anyone.
        phone_number: `+4477009${String(i + 1).padStart(5, '0')}`,
        address: `${3 + Math.floor(rng() * 90)} ${pick(rng, STREETS)}, ${pick(rng, TOWNS)}`,
        language: pick(rng, DEMO_LANGUAGES),
        authorized_device_id: device?.authorized_device_id ?? null,
        ...options.site,
        programme_referred_to: 'pad-programme',
        referring_organisation: pick(rng, ORGANISATIONS),
        referring_healthcare_professional: professional,
        referring_healthcare_professional_role: role,
        checked_contraindications_to_exercise: true,
        smoker: rng() < 0.3,
        diabetes: rng() < 0.35,
        registered_deaf: rng() < 0.05,
        notes:
          member.habit === 'lapsed' ? 'Demo: stopped watching after the first week; call to check in.' : null,
        created_at: registeredAt,
      })
      .returning({ participant_id: participants.participant_id });
    const participantId = participant!.participant_id;
    // The tablet was handed over at registration (the add form assigns it).
    if (device) {
      await openAssignment(tx, participantId, device, null, registeredAt);
      await tx
        .update(participantFollowup)
        .set({ device_assigned_at: registeredAt })
        .where(eq(participantFollowup.participant_id, participantId));
    }
    if (member.habit === 'no-programme' || member.habit === 'no-device') continue;

    const set = options.sets[member.set! % options.sets.length]!;
    const habit = member.habit;
    const started = addDays(today, -member.startedDaysAgo!);
    // A discharged participant's programme stops on the day of their discharge.
    const lastDay = member.discharged ? addDays(today, -member.discharged.daysAgo) : today;
    let position: Position = { week: 1, day: 1 };
    let missedAtCheck = 0;
    const seen = new Set<number>();
    const seenAt = new Map<number, Date>();
    let lastSeen = started;
    let todaysCheck: ReturnType<typeof dailyCheck> | undefined;
    const reminders: { date: string; kind: 'new-video' | 'missed-video' }[] = [];
    const total = exerciseDaysInProgramme(set.shape);
    for (let day = 0; addDays(started, day) <= lastDay; day++) {
      const date = addDays(started, day);
      if (day > 0) {
        const result = dailyCheck(
          { set: set.shape, started_date: started, position, seen, missed_at_check: missedAtCheck },
          date,
        );
        position = result.position;
        missedAtCheck = result.missed;
        if (date === today) todaysCheck = result;
        if (result.advanced) reminders.push({ date, kind: 'new-video' });
        if (result.remindMissed) reminders.push({ date, kind: 'missed-video' });
      }
      // Today is not over: before 09:00 nobody has watched yet, after it only some have.
      const todayFactor = date !== today ? 1 : now.getUTCHours() < 9 ? 0 : 0.4;
      const chance = watchChance[habit](seen.size / total, day) * todayFactor;
      const index = positionIndex(position, set.shape);
      if (!seen.has(index) && rng() < chance) {
        const videoId = set.videoIdAt[index];
        if (videoId === undefined) continue;
        seen.add(index);
        lastSeen = date;
        const hour = date === today ? 7 + Math.floor(rng() * 2) : 8 + Math.floor(rng() * 12);
        const viewedAt = at(
          date,
          `${String(hour).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00`,
        );
        seenAt.set(index, viewedAt);
        const { week, day: dayNumber } = positionAt(index, set.shape);
        seenRows.push({
          participant_id: participantId,
          video_id: videoId,
          fitness_video_set_id: set.fitness_video_set_id,
          week_number: week,
          day_number: dayNumber,
          created_at: viewedAt,
        });
        views++;
      }
    }
    const behind = daysBehind(shouldSeenByNow(daysPassed(started, lastDay), set.shape), seen.size);
    await tx.insert(participationProgress).values({
      participant_id: participantId,
      fitness_video_set_id: set.fitness_video_set_id,
      current_week: position.week,
      current_day: position.day,
      started_date: started,
      last_seen_date: lastSeen,
      percentage_progress: percentageProgress(seen.size, set.shape),
      missed_at_check: missedAtCheck,
      video_stopped_at: '0',
      created_at: at(started, '09:30:00'),
    });
    await tx
      .update(participantAdherence)
      .set({ days_behind: behind })
      .where(eq(participantAdherence.participant_id, participantId));
    // The worklist's facts as the check and the day's views left them: the missed days, and the
    // programme finished since the view of its last day when a check has seen it.
    const missed = missedDays(started, lastDay, seen.size, set.shape);
    const lastIndex = positionIndex(position, set.shape);
    const finishedAt = lastIndex === total ? seenAt.get(lastIndex) : undefined;
    await tx
      .update(participantFollowup)
      .set({
        first_missed_on: missed.first_missed_on,
        third_missed_on: missed.third_missed_on,
        finished_at: finishedAt && calendarDate(finishedAt, options.timeZone) < lastDay ? finishedAt : null,
      })
      .where(eq(participantFollowup.participant_id, participantId));

    await seedTablet(tx, {
      participantId,
      organisationId: options.site.organisation_id,
      device: device!,
      tablet: member.tablet ?? 'calling',
      handedOverAt: at(started, '10:00:00'),
      until: member.discharged ? at(lastDay, '09:00:00') : now,
      lastViewAt: seenAt.get(Math.max(0, ...seenAt.keys())) ?? at(started, '10:05:00'),
      reminders: reminders.filter((r) => r.date < today),
      rng,
      messages: messagesSent,
    });
    if (todaysCheck?.advanced && !member.discharged) {
      messagesSent.push({
        participant_id: participantId,
        title: messages.reminders.newVideoTitle,
        body: messages.reminders.newVideoBody,
        kind: 'new-video',
        dedupe_key: `new-video:${participantId}:${today}`,
        created_at: now,
      });
    }
    if (todaysCheck?.remindMissed && !member.discharged) {
      messagesSent.push({
        participant_id: participantId,
        title: messages.reminders.missedTitle,
        body: messages.reminders.missedBody,
        kind: 'missed-video',
        dedupe_key: `missed-video:${participantId}:${today}`,
        created_at: now,
      });
    }
    if (member.discharged) await discharge(tx, participantId, device!, member.discharged, lastDay);
    await recordDemoWalks(tx, { participantId, walkMeasureId, member, started, lastDay });
  }
  for (let n = 0; n < SPARE_DEVICES; n++) await newDevice(CAST.length + n + 1);

  for (let i = 0; i < seenRows.length; i += 500)
    await tx.insert(seenVideos).values(seenRows.slice(i, i + 500));
  // The dashboard's rollup, by programme day, for exactly the views just written.
  const perDay = new Map<string, number>();
  for (const row of seenRows) {
    const day = calendarDate(row.created_at!, options.timeZone);
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  for (const [day, count] of perDay) {
    await tx
      .insert(dailyViews)
      .values({ day, site_id: options.site.site_id, views: count })
      .onConflictDoUpdate({
        target: [dailyViews.day, dailyViews.site_id],
        set: { views: sql`${dailyViews.views} + ${count}` },
      });
  }
  for (let i = 0; i < messagesSent.length; i += 500)
    await tx
      .insert(pushOutbox)
      .values(messagesSent.slice(i, i + 500))
      .onConflictDoNothing();
  // What is due is kept by triggers from the database's own clock; the demo's days are the
  // programme's today (a test's clock may be elsewhere), so every demo participant is placed by it.
  await tx.execute(sql`
    select assessment_due_refresh(array(select participant_id from participant_followup), ${today}::date)`);
  // Today's check has been played out above: the scheduled one has nothing left to do today.
  await tx
    .insert(adherenceRuns)
    .values({ run_date: today, started_at: now, finished_at: now, participants_checked: CAST.length })
    .onConflictDoNothing();
  return { participants: CAST.length, devices: devicesMade, views };
}

/**
 * Every demo set assesses the six-minute walk (shipped with the product) at the start and the end,
 * so the Outcomes tab, the outcomes report and the worklist's "Assessment due" have something to
 * show. Returns the measure's id.
 */
async function scheduleDemoAssessments(tx: Database, sets: DemoSet[]): Promise<number> {
  const [walk] = await tx
    .select({ measure_id: outcomeMeasures.measure_id })
    .from(outcomeMeasures)
    .where(eq(outcomeMeasures.code, '6MWD'));
  for (const set of sets) {
    await tx.insert(assessmentSchedules).values(
      (['baseline', 'end'] as const).map((timepoint, position) => ({
        fitness_video_set_id: set.fitness_video_set_id,
        timepoint,
        measure_id: walk!.measure_id,
        position,
      })),
    );
  }
  return walk!.measure_id;
}

/**
 * A participant's six-minute walks, as a clinic would record them: the baseline on the second day
 * of the programme (one slipping participant's was never taken: the report's completeness shows
 * it), and the end walk on the day a completed participant was discharged, most of them further
 * than at the start. Those in their first days, and those in their last week, are left due.
 */
async function recordDemoWalks(
  tx: Database,
  p: {
    participantId: number;
    walkMeasureId: number;
    member: Cast;
    started: string;
    lastDay: string;
  },
): Promise<void> {
  const { member } = p;
  const firstDaysStill = member.startedDaysAgo! < 5;
  const baselineMissed = member.habit === 'slipping' && member.startedDaysAgo === 21;
  if (firstDaysStill || baselineMissed) return;
  // Spread by the participant, not drawn from the programme's random source, which would move
  // every later participant's viewing history.
  const baseline = 220 + ((p.participantId * 37) % 180);
  const walk = (timepoint: 'baseline' | 'end', taken_on: string, value: number) => ({
    participant_id: p.participantId,
    measure_id: p.walkMeasureId,
    timepoint,
    taken_on,
    value,
    score: value,
    admin_user_name: 'demo',
    created_at: at(taken_on, '11:00:00'),
  });
  await tx.insert(assessmentResults).values(walk('baseline', addDays(p.started, 1), baseline));
  if (member.discharged?.outcome === 'completed') {
    await tx
      .insert(assessmentResults)
      .values(walk('end', p.lastDay, baseline + 25 + ((p.participantId * 13) % 60)));
  }
}

/**
 * The tablet's side, as the device API and push delivery record it: its sign-in (call 1) and push
 * token (call 2) when it was handed over, its bearer token's last use and the participant's "last
 * in contact" (a silent tablet's last call was the day of the last view), and the past reminders
 * with Firebase's answers (the last two refused for a failing tablet; for an unregistered one the
 * answer that cleared its token, and nothing sent after).
 */
async function seedTablet(
  tx: Database,
  t: {
    participantId: number;
    organisationId: number;
    device: { authorized_device_id: number; uuid: string };
    tablet: Tablet;
    handedOverAt: Date;
    lastViewAt: Date;
    reminders: { date: string; kind: 'new-video' | 'missed-video' }[];
    /** Now, or the discharge (the tablet is taken back). */
    until: Date;
    rng: () => number;
    messages: (typeof pushOutbox.$inferInsert)[];
  },
): Promise<void> {
  const token = `demo-fcm-${randomBytes(12).toString('hex')}`;
  const ip = `10.20.${Math.floor(t.rng() * 250)}.${2 + Math.floor(t.rng() * 250)}`;
  const calledAt =
    t.tablet === 'silent'
      ? new Date(t.lastViewAt.getTime() + 5 * 60_000)
      : new Date(t.until.getTime() - (1 + Math.floor(t.rng() * 5 * 60)) * 60_000);
  const lastCall = new Date(Math.floor(calledAt.getTime() / 60_000) * 60_000);
  await tx.insert(deviceSignIns).values([
    {
      kind: SIGN_IN_KINDS.tokenIssued,
      organisation_id: t.organisationId,
      authorized_device_id: t.device.authorized_device_id,
      device_uuid: t.device.uuid,
      participant_id: t.participantId,
      ip_address: ip,
      created_at: t.handedOverAt,
    },
    {
      kind: SIGN_IN_KINDS.pushTokenChanged,
      organisation_id: t.organisationId,
      authorized_device_id: t.device.authorized_device_id,
      device_uuid: t.device.uuid,
      participant_id: t.participantId,
      ip_address: ip,
      created_at: new Date(t.handedOverAt.getTime() + 2_000),
    },
  ]);
  await tx.insert(deviceTokens).values({
    token_hash: hashDeviceToken(randomBytes(32).toString('base64url')),
    authorized_device_id: t.device.authorized_device_id,
    participant_id: t.participantId,
    created_at: t.handedOverAt,
    last_used_at: lastCall,
  });
  const failingFrom = t.tablet === 'failing' ? t.reminders.length - 2 : t.reminders.length;
  const unregisteredAt = t.tablet === 'unregistered' ? t.reminders.length - 3 : t.reminders.length;
  let failures = 0;
  let failingBeganAt: Date | null = null;
  for (const [n, reminder] of t.reminders.entries()) {
    const queuedAt = at(reminder.date, '06:00:00');
    const answeredAt = new Date(queuedAt.getTime() + 2_000);
    const text =
      reminder.kind === 'new-video'
        ? { title: messages.reminders.newVideoTitle, body: messages.reminders.newVideoBody }
        : { title: messages.reminders.missedTitle, body: messages.reminders.missedBody };
    const fate =
      n > unregisteredAt
        ? { status: messages.push.noToken, last_error: null, target_token: null, sent_at: null }
        : n === unregisteredAt
          ? {
              status: messages.push.unregistered,
              last_error: FCM_UNREGISTERED,
              target_token: token,
              sent_at: null,
            }
          : n >= failingFrom
            ? { status: messages.push.failed, last_error: FCM_REFUSED, target_token: token, sent_at: null }
            : { status: messages.push.sent, last_error: null, target_token: token, sent_at: answeredAt };
    if (fate.status === messages.push.failed || fate.status === messages.push.unregistered) {
      failures += 1;
      failingBeganAt ??= answeredAt;
    }
    t.messages.push({
      participant_id: t.participantId,
      ...text,
      kind: reminder.kind,
      dedupe_key: `${reminder.kind}:${t.participantId}:${reminder.date}`,
      created_at: queuedAt,
      attempts: 1,
      ...fate,
    });
  }
  const cleared = t.tablet === 'unregistered' && unregisteredAt >= 0;
  const participantToken = cleared ? NO_DEVICE : token;
  await tx
    .update(participants)
    .set({ push_notification_id: participantToken, tablet_last_contact_at: lastCall, last_ip_address: ip })
    .where(eq(participants.participant_id, t.participantId));
  await tx
    .update(authorizedDevices)
    .set({ push_notification_id: cleared ? null : token })
    .where(eq(authorizedDevices.authorized_device_id, t.device.authorized_device_id));
  // As the device API and push delivery keep them (a cleared token has reset the failures counted).
  await tx
    .update(participantFollowup)
    .set({
      tablet_called_at: lastCall,
      push_failures: cleared ? 0 : failures,
      failing_began_at: failingBeganAt,
    })
    .where(eq(participantFollowup.participant_id, t.participantId));
}

/** A discharge as the life-cycle's: tokens ended, device detached, the assignment closed. */
async function discharge(
  tx: Database,
  participantId: number,
  device: { authorized_device_id: number },
  how: NonNullable<Cast['discharged']>,
  on: string,
): Promise<void> {
  const at10 = at(on, '10:00:00');
  await tx
    .update(deviceTokens)
    .set({ revoked_at: at10 })
    .where(eq(deviceTokens.participant_id, participantId));
  await tx
    .update(authorizedDevices)
    .set({ push_notification_id: null })
    .where(eq(authorizedDevices.authorized_device_id, device.authorized_device_id));
  await closeAssignment(tx, participantId, at10);
  await tx
    .update(participants)
    .set({
      status: how.outcome,
      discharged_on: on,
      discharge_reason: how.outcome === 'withdrawn' ? how.reason : null,
      authorized_device_id: null,
      push_notification_id: NO_DEVICE,
      updated_at: at10,
    })
    .where(eq(participants.participant_id, participantId));
}
