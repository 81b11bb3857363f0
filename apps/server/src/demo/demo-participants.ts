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
  percentageProgress,
  positionAt,
  positionIndex,
  shouldSeenByNow,
  type Language,
  type Position,
  type SetShape,
} from '@pathway/contract';
import type { Database } from '../db/client.js';
import {
  adherenceRuns,
  authorizedDevices,
  dailyViews,
  participantAdherence,
  participants,
  participationProgress,
  pushOutbox,
  seenVideos,
} from '../db/schema.js';

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

interface Cast {
  habit: Habit | 'no-programme' | 'no-device';
  startedDaysAgo?: number;
  set?: number;
}

/** Who the demo programme has: every adherence state, newcomers, and people waiting for a tablet. */
const CAST: Cast[] = [
  { habit: 'diligent', startedDaysAgo: 3, set: 0 },
  { habit: 'diligent', startedDaysAgo: 11, set: 0 },
  { habit: 'diligent', startedDaysAgo: 19, set: 1 },
  { habit: 'diligent', startedDaysAgo: 26, set: 1 },
  { habit: 'diligent', startedDaysAgo: 33, set: 0 },
  { habit: 'diligent', startedDaysAgo: 40, set: 0 },
  { habit: 'steady', startedDaysAgo: 9, set: 1 },
  { habit: 'steady', startedDaysAgo: 16, set: 0 },
  { habit: 'steady', startedDaysAgo: 23, set: 1 },
  { habit: 'steady', startedDaysAgo: 30, set: 1 },
  { habit: 'steady', startedDaysAgo: 37, set: 0 },
  { habit: 'slipping', startedDaysAgo: 14, set: 0 },
  { habit: 'slipping', startedDaysAgo: 21, set: 1 },
  { habit: 'slipping', startedDaysAgo: 28, set: 1 },
  { habit: 'slipping', startedDaysAgo: 35, set: 0 },
  { habit: 'lapsed', startedDaysAgo: 18, set: 1 },
  { habit: 'lapsed', startedDaysAgo: 25, set: 0 },
  { habit: 'lapsed', startedDaysAgo: 31, set: 1 },
  { habit: 'no-programme' },
  { habit: 'no-programme' },
  { habit: 'no-device' },
  { habit: 'no-device' },
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

/**
 * Devices, participants with referrals, and their programme history up to `today`: each
 * participant lives through their days by the programme rules (`dailyCheck`), watching as their
 * habit says, so positions, days behind, percentages and the views rollup agree with what the
 * daily check would have made of them.
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
  const reminders: (typeof pushOutbox.$inferInsert)[] = [];

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

  for (const [i, member] of CAST.entries()) {
    const device = member.habit === 'no-device' ? null : await newDevice(i + 1);
    const [professional, role] = pick(rng, PROFESSIONALS);
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
        created_at: new Date(now.getTime() - (member.startedDaysAgo ?? 1) * 86_400_000 - 3 * 3_600_000),
      })
      .returning({ participant_id: participants.participant_id });
    const participantId = participant!.participant_id;
    if (member.habit === 'no-programme' || member.habit === 'no-device') continue;

    const set = options.sets[member.set! % options.sets.length]!;
    const habit = member.habit;
    const started = addDays(today, -member.startedDaysAgo!);
    let position: Position = { week: 1, day: 1 };
    let missedAtCheck = 0;
    const seen = new Set<number>();
    let lastSeen = started;
    let todaysCheck: ReturnType<typeof dailyCheck> | undefined;
    const total = exerciseDaysInProgramme(set.shape);
    for (let day = 0; day <= member.startedDaysAgo!; day++) {
      const date = addDays(started, day);
      if (day > 0) {
        const result = dailyCheck(
          { set: set.shape, started_date: started, position, seen, missed_at_check: missedAtCheck },
          date,
        );
        position = result.position;
        missedAtCheck = result.missed;
        if (date === today) todaysCheck = result;
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
        const at = new Date(
          `${date}T${String(hour).padStart(2, '0')}:${String(Math.floor(rng() * 60)).padStart(2, '0')}:00Z`,
        );
        const { week, day: dayNumber } = positionAt(index, set.shape);
        seenRows.push({
          participant_id: participantId,
          video_id: videoId,
          fitness_video_set_id: set.fitness_video_set_id,
          week_number: week,
          day_number: dayNumber,
          created_at: at,
        });
        views++;
      }
    }
    const behind = daysBehind(shouldSeenByNow(daysPassed(started, today), set.shape), seen.size);
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
      created_at: new Date(`${started}T09:30:00Z`),
    });
    await tx
      .update(participantAdherence)
      .set({ days_behind: behind })
      .where(eq(participantAdherence.participant_id, participantId));
    if (todaysCheck?.advanced) {
      reminders.push({
        participant_id: participantId,
        title: messages.reminders.newVideoTitle,
        body: messages.reminders.newVideoBody,
        kind: 'new-video',
        dedupe_key: `new-video:${participantId}:${today}`,
        created_at: now,
      });
    }
    if (todaysCheck?.remindMissed) {
      reminders.push({
        participant_id: participantId,
        title: messages.reminders.missedTitle,
        body: messages.reminders.missedBody,
        kind: 'missed-video',
        dedupe_key: `missed-video:${participantId}:${today}`,
        created_at: now,
      });
    }
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
  if (reminders.length > 0) await tx.insert(pushOutbox).values(reminders).onConflictDoNothing();
  // Today's check has been played out above: the scheduled one has nothing left to do today.
  await tx
    .insert(adherenceRuns)
    .values({ run_date: today, started_at: now, finished_at: now, participants_checked: CAST.length })
    .onConflictDoNothing();
  return { participants: CAST.length, devices: devicesMade, views };
}
