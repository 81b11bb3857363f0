import type { BenchDatabase } from './database.js';

/**
 * Set-based data for the benchmarks (generate_series, INSERT ... SELECT), with explicit ids so
 * every size is a prefix of the next: participants 1..n, each with a device (except every tenth),
 * a programme, and a spread over the three adherence states; seen_videos grow by whole rows.
 */

/** The 50-week set the tablet call reads: 7 videos a week, 350 videos. */
export const LONG_SET = { id: 1, weeks: 50, perWeek: 7, firstVideoId: 1 };
/** A 24-week set with 5 videos a week (every third participant follows it). */
export const SHORT_SET = { id: 2, weeks: 24, perWeek: 5, firstVideoId: 351 };
const setSize = (set: typeof LONG_SET) => set.weeks * set.perWeek;

const TODAY = `(now() at time zone 'Europe/London')::date`;
const FIRST_NAMES = [
  'Amelia',
  'Oliver',
  'Isla',
  'George',
  'Ava',
  'Harry',
  'Mia',
  'Noah',
  'Grace',
  'Jack',
  'Ruby',
  'Leo',
  'Freya',
  'Arthur',
  'Evie',
  'Oscar',
  'Poppy',
  'Charlie',
  'Ivy',
  'Thomas',
];
const LAST_NAMES = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Thomas',
  'Clarke',
  'Jackson',
  'Wood',
  'Harris',
  'Edwards',
  'Turner',
  'Martin',
  'Cooper',
  'Hill',
  'Ward',
  'Hughes',
  'Moore',
  'Clark',
  'King',
  'Harrison',
  'Lewis',
  'Baker',
  'Lee',
  'Allen',
  'Morris',
  'Khan',
];
const textArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** The tablet of participant i (every tenth participant has none). */
export const deviceUuid = (i: number) => `b${i.toString(16).padStart(15, '0')}`;
export const hasDevice = (i: number) => i % 10 !== 0;
/** The programme runs at the instance's first site, which every new database has (organisation 1). */
export const BENCH_SITE = { site_id: 1, organisation_id: 1 } as const;
export const followsLongSet = (i: number) => i % 3 !== 0;

export async function prepareProgramme(db: BenchDatabase): Promise<void> {
  const videosOf = (set: typeof LONG_SET) => `
    insert into videos (video_id, fitness_video_set_id, title, description, file_location_path, file_size,
                        video_thumbnail_url, poster_url, video_length, week_number, day_number)
    select ${set.firstVideoId} + k, ${set.id}, 'Week ' || (k / ${set.perWeek} + 1) || ', day ' || (k % ${set.perWeek} + 1),
           'Seated warm-up, walking practice and stretches, about ten minutes.',
           'videos/' || md5('video-${set.id}-' || k) || '.mp4', 48000000 + k,
           'thumbs/' || md5('thumb-${set.id}-' || k) || '.jpg', 'posters/' || md5('poster-${set.id}-' || k) || '.jpg',
           '600', k / ${set.perWeek} + 1, k % ${set.perWeek} + 1
    from generate_series(0, ${setSize(set) - 1}) k`;
  await db.load([
    `insert into fitness_video_sets (fitness_video_set_id, set_name, number_of_weeks, videos_in_week, organisation_id) values
       (${LONG_SET.id}, 'Bench 50 weeks', ${LONG_SET.weeks}, ${LONG_SET.perWeek}, ${BENCH_SITE.organisation_id}),
       (${SHORT_SET.id}, 'Bench 24 weeks', ${SHORT_SET.weeks}, ${SHORT_SET.perWeek}, ${BENCH_SITE.organisation_id})`,
    videosOf(LONG_SET),
    videosOf(SHORT_SET),
    `select setval('fitness_video_sets_fitness_video_set_id_seq', 2)`,
    `select setval('videos_video_id_seq', ${SHORT_SET.firstVideoId + setSize(SHORT_SET) - 1})`,
  ]);
}

/** Participants from+1..to, their devices and programmes (adherence states spread 50/25/25). */
export async function addParticipants(db: BenchDatabase, from: number, to: number): Promise<void> {
  const range = `generate_series(${from + 1}, ${to}) i`;
  await db.load([
    `insert into authorized_devices (authorized_device_id, name, uuid, organisation_id)
     select i, 'Tablet ' || i, 'b' || lpad(to_hex(i), 15, '0'), ${BENCH_SITE.organisation_id} from ${range} where i % 10 <> 0`,
    `insert into participants (participant_id, first_name, last_name, gender, date_of_birth, email, phone_number,
                               address, language, authorized_device_id, push_notification_id, site_id, organisation_id)
     select i, (${textArray(FIRST_NAMES)})[1 + i % ${FIRST_NAMES.length}],
            (${textArray(LAST_NAMES)})[1 + (i * 7919) % ${LAST_NAMES.length}],
            case when i % 2 = 0 then 'female' else 'male' end,
            date '1938-01-01' + (i * 37) % 14000, 'participant' || i || '@example.org',
            '07' || lpad(((i::bigint * 7919) % 1000000000)::text, 9, '0'), i || ' Station Road, Leeds LS1 4AB', 'English',
            case when i % 10 <> 0 then i end,
            case when i % 10 <> 0 then 'fcm-' || md5(i::text) else 'empty' end,
            ${BENCH_SITE.site_id}, ${BENCH_SITE.organisation_id}
     from ${range}`,
    // Each participant's participant_adherence row is made by the insert's trigger, at 0 days behind.
    `update participant_adherence set days_behind =
       case participant_id % 4 when 0 then 0 when 1 then 0 when 2 then 1 + participant_id % 2 else 3 + participant_id % 9 end
     where participant_id between ${from + 1} and ${to}`,
    `insert into fitness_participation_progress (participant_id, fitness_video_set_id, current_week, current_day,
                                                 started_date, last_seen_date, percentage_progress)
     select i, case when i % 3 = 0 then ${SHORT_SET.id} else ${LONG_SET.id} end, 1, 1,
            ${TODAY} - (i % 200), ${TODAY} - (i % 5), 0
     from ${range}`,
    `select setval('participants_participant_id_seq', ${to})`,
    `select setval('authorized_devices_authorized_device_id_seq', ${to})`,
  ]);
  await db.settle();
}

/**
 * seen_videos rows from..to-1 of `participantCount` participants: row r is participant r % n + 1
 * seeing the (r / n + 1)th video of their set, so each size is a prefix of the next. daily_views
 * (the dashboard's rollup), each programme's seen_count and the reports' rollups (seen_weeks,
 * video_day_views, where people stop's), which the server keeps in step with seen_videos, are
 * brought up to date.
 */
export async function addSeenVideos(
  db: BenchDatabase,
  participantCount: number,
  from: number,
  to: number,
): Promise<void> {
  if (Math.ceil(to / participantCount) > setSize(SHORT_SET)) {
    throw new Error(`${to} seen videos do not fit ${participantCount} participants`);
  }
  // An aggregate without GROUP BY returns exactly one row.
  const { last } = (
    await db.rows<{ last: string }>(`select coalesce(max(seen_video_id), 0)::text as last from seen_videos`)
  )[0]!;
  const batch = 1_000_000;
  const statements: string[] = [];
  for (let start = from; start < to; start += batch) {
    const end = Math.min(to, start + batch);
    statements.push(`
      insert into seen_videos (participant_id, video_id, fitness_video_set_id, week_number, day_number, created_at)
      select pid, case when long then ${LONG_SET.firstVideoId} else ${SHORT_SET.firstVideoId} end + k,
             case when long then ${LONG_SET.id} else ${SHORT_SET.id} end,
             k / case when long then ${LONG_SET.perWeek} else ${SHORT_SET.perWeek} end + 1,
             k % case when long then ${LONG_SET.perWeek} else ${SHORT_SET.perWeek} end + 1,
             now() - make_interval(days => ((k * 3 + pid) % 365)::int, secs => (pid % 36000)::double precision)
      from (select (r / ${participantCount})::int as k, (r % ${participantCount})::int + 1 as pid,
                   (r % ${participantCount} + 1) % 3 <> 0 as long
            from generate_series(${start}::bigint, ${end - 1}::bigint) r) g
      order by pid, k`);
  }
  statements.push(
    // Every bench participant belongs to BENCH_SITE: the rollups' rows are that site's.
    `insert into daily_views (day, site_id, views)
     select (created_at at time zone 'Europe/London')::date, ${BENCH_SITE.site_id}, count(*)::int from seen_videos
     where seen_video_id > ${last} group by 1
     on conflict (day, site_id) do update set views = daily_views.views + excluded.views`,
    // What the seen_videos triggers keep in step (turned off for the load): each programme's count of its views.
    `update fitness_participation_progress p set seen_count = p.seen_count + c.n
     from (select participant_id, fitness_video_set_id, count(*)::int as n from seen_videos
           where seen_video_id > ${last} group by 1, 2) c
     where p.participant_id = c.participant_id and p.fitness_video_set_id = c.fitness_video_set_id`,
    // And the reports' rollups (drizzle/0019_report_rollup_triggers.sql): per participant, set and
    // week, and per UTC day and video.
    `insert into seen_weeks as w (participant_id, fitness_video_set_id, week_number, seen, last_seen_at)
     select participant_id, fitness_video_set_id, week_number, count(*)::int, max(created_at) from seen_videos
     where seen_video_id > ${last} group by 1, 2, 3
     on conflict (participant_id, fitness_video_set_id, week_number) do update
       set seen = w.seen + excluded.seen, last_seen_at = greatest(w.last_seen_at, excluded.last_seen_at)`,
    `insert into video_day_views as d (day, video_id, site_id, views)
     select (created_at at time zone 'UTC')::date, video_id, ${BENCH_SITE.site_id}, count(*)::int from seen_videos
     where seen_video_id > ${last} group by 1, 2
     on conflict (day, video_id, site_id) do update set views = d.views + excluded.views`,
    // Where people stop's rollups (drizzle/0020_programme_week_rollups.sql): each seen week's
    // completion and the counts per set, week, start day and day, afresh from seen_weeks.
    `select programme_weeks_rebuild()`,
  );
  await db.load(statements, { bulk: true });
  await db.settle();
}
