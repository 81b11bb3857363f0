import { sql, type SQL } from 'drizzle-orm';
import {
  NOT_RECORDED_LABEL,
  WITHDRAWAL_REASONS,
  type ReportGrouping,
  type ReportName,
  type ReportsAnswers,
  type WithdrawalReason,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { column, nullable, rowsReader } from '../../db/rows.js';
import { siteDetail } from '../../lib/site-filter.js';
import type { AuditActor, AuditService } from '../audit/index.js';

/**
 * The Reports screen's figures. Every report is one set-based statement (or two): SQL
 * counts and groups, TypeScript only lays out the few grouped rows it answers. Days are calendar
 * days of the programme's time zone (ADHERENCE_CHECK_TZ), `from` and `to` included.
 */
export interface ReportPeriod {
  from: string;
  to: string;
  by: ReportGrouping;
}

export interface ReportContext {
  db: Database;
  /** ADHERENCE_CHECK_TZ */
  timeZone: string;
  /** Today in that time zone: a period reaching past it counts programme weeks up to today. */
  today: string;
}

const FORMATS: Record<ReportGrouping, { unit: string; step: string; label: string }> = {
  month: { unit: 'month', step: '1 month', label: 'YYYY-MM' },
  // ISO weeks: Monday to Sunday, labelled by their ISO year (2026-W01 may start in December 2025).
  week: { unit: 'week', step: '1 week', label: 'IYYY-"W"IW' },
};

/** The bucket (first day of the month or ISO week) of a date expression. */
function bucketOf(day: SQL, by: ReportGrouping): SQL {
  return sql`date_trunc(${FORMATS[by].unit}, (${day})::timestamp)::date`;
}

/** Every month or week touching the period, oldest first, so an empty one is still a row. */
function bucketsCte(p: ReportPeriod): SQL {
  const f = FORMATS[p.by];
  return sql`buckets as (
    select b::date as starts_on, to_char(b, ${f.label}) as period,
      (b + ${f.step}::interval)::date - 1 as ends_on
    from generate_series(date_trunc(${f.unit}, ${p.from}::timestamp), ${p.to}::timestamp, ${f.step}::interval) b
  )`;
}

/** The instants the period covers, as a half-open range in the programme's time zone. */
function periodStart(c: ReportContext, p: ReportPeriod): SQL {
  return sql`(${p.from}::timestamp at time zone ${c.timeZone})`;
}
function periodEnd(c: ReportContext, p: ReportPeriod): SQL {
  return sql`((${p.to}::date + 1)::timestamp at time zone ${c.timeZone})`;
}

/** A participant's registration day in the programme's calendar. */
function registeredOn(c: ReportContext): SQL {
  return sql`(pa.created_at at time zone ${c.timeZone})::date`;
}

/**
 * "Started": has a programme and a tablet (now, or one in the device history: a discharge
 * detaches the tablet of someone who did start).
 */
const startedWithDevice = sql`(pa.authorized_device_id is not null or exists (
  select 1 from device_assignments da where da.participant_id = pa.participant_id))`;

const readReferrals = rowsReader({
  starts_on: column.date,
  kind: column.oneOf(['all', 'org', 'prog']),
  name: nullable(column.text),
  n: column.integer,
});

async function referrals(c: ReportContext, p: ReportPeriod): Promise<ReportsAnswers['referrals']> {
  const rows = readReferrals(
    await c.db.execute(sql`
      with registered as (
        select ${bucketOf(registeredOn(c), p.by)} as starts_on,
          coalesce(nullif(btrim(pa.referring_organisation), ''), ${NOT_RECORDED_LABEL}) as org,
          coalesce(nullif(btrim(pa.programme_referred_to), ''), ${NOT_RECORDED_LABEL}) as prog
        from participants pa
        where pa.created_at >= ${periodStart(c, p)} and pa.created_at < ${periodEnd(c, p)}
      )
      select * from (
      select to_char(starts_on, 'YYYY-MM-DD') as starts_on,
        case when grouping(org) = 0 then 'org' when grouping(prog) = 0 then 'prog' else 'all' end as kind,
        case when grouping(org) = 0 then org when grouping(prog) = 0 then prog end as name,
        count(*)::int as n
      from registered
      group by grouping sets ((starts_on), (starts_on, org), (starts_on, prog))
      ) grouped
      -- The same order on both databases, whatever their collation.
      order by name collate "C"`),
  );
  const buckets = await bucketRows(c, p);
  return {
    report: 'referrals',
    period: p,
    rows: buckets.map((b) => {
      const mine = rows.filter((r) => r.starts_on === b.starts_on);
      return {
        period: b.period,
        starts_on: b.starts_on,
        referred: mine.find((r) => r.kind === 'all')?.n ?? 0,
        by_organisation: mine.filter((r) => r.kind === 'org').map((r) => ({ name: r.name!, count: r.n })),
        by_programme: mine.filter((r) => r.kind === 'prog').map((r) => ({ name: r.name!, count: r.n })),
      };
    }),
  };
}

const readBuckets = rowsReader({ starts_on: column.date, period: column.text });

async function bucketRows(
  c: ReportContext,
  p: ReportPeriod,
): Promise<{ starts_on: string; period: string }[]> {
  return readBuckets(
    await c.db.execute(
      sql`with ${bucketsCte(p)} select to_char(starts_on, 'YYYY-MM-DD') as starts_on, period from buckets order by starts_on`,
    ),
  );
}

const readFlow = rowsReader({
  starts_on: nullable(column.date),
  period: nullable(column.text),
  total: column.integer,
  referred: column.integer,
  started: column.integer,
  completed: column.integer,
  withdrawn: column.integer,
  active: column.integer,
  median: nullable(column.number),
  p90: nullable(column.number),
});
const readWithdrawals = rowsReader({ reason: nullable(column.text), n: column.integer });

async function flow(c: ReportContext, p: ReportPeriod): Promise<ReportsAnswers['flow']> {
  // Every programme is read in one pass and joined by hash, not looked up per registration:
  // fitness_participation_progress's row-level security policy finds its participant, and once
  // per registration (the plan the planner picks for a look-up) that doubled the report's time at
  // 100k participants; in one pass the policy hashes the participants it may see once. Each
  // registration's day is converted to the programme's calendar once, and the registrations are
  // counted per month or week before the periods with none are added (bench/results.md).
  const cohort = sql`progress as materialized (
    select participant_id, started_date from fitness_participation_progress
  ), registered as (
    select ${registeredOn(c)} as registered_on, pa.participant_id, pa.status, pa.authorized_device_id
    from participants pa
    where pa.created_at >= ${periodStart(c, p)} and pa.created_at < ${periodEnd(c, p)}
  ), cohort as (
    select ${bucketOf(sql`pa.registered_on`, p.by)} as starts_on, pa.status,
      case when pr.participant_id is not null and ${startedWithDevice}
        then pr.started_date - pa.registered_on end as days_to_start
    from registered pa
    left join progress pr on pr.participant_id = pa.participant_id
  ), figures as (
    select c.starts_on, grouping(c.starts_on) as total,
      count(*)::int as referred,
      count(c.days_to_start)::int as started,
      count(*) filter (where c.status = 'completed')::int as completed,
      count(*) filter (where c.status = 'withdrawn')::int as withdrawn,
      count(*) filter (where c.status = 'active')::int as active,
      (percentile_cont(0.5) within group (order by c.days_to_start))::float8 as median,
      (percentile_cont(0.9) within group (order by c.days_to_start))::float8 as p90
    from cohort c
    group by grouping sets ((c.starts_on), ())
  )`;
  const [figures, reasons] = await Promise.all([
    c.db
      .execute(
        sql`
        with ${bucketsCte(p)}, ${cohort}
        select to_char(b.starts_on, 'YYYY-MM-DD') as starts_on, b.period, 0 as total,
          coalesce(f.referred, 0) as referred, coalesce(f.started, 0) as started,
          coalesce(f.completed, 0) as completed, coalesce(f.withdrawn, 0) as withdrawn,
          coalesce(f.active, 0) as active, f.median, f.p90
        from buckets b left join figures f on f.starts_on = b.starts_on and f.total = 0
        union all
        -- The whole period's row: the grouping set () has one even when nobody registered.
        select null, null, 1, referred, started, completed, withdrawn, active, median, p90
        from figures where total = 1
        order by 1 nulls last`,
      )
      .then(readFlow),
    c.db
      .execute(
        // Only the withdrawn of the period's registrations: no need of their programmes or tablets.
        sql`select pa.discharge_reason as reason, count(*)::int as n from participants pa
        where pa.created_at >= ${periodStart(c, p)} and pa.created_at < ${periodEnd(c, p)}
          and pa.status = 'withdrawn'
        group by pa.discharge_reason`,
      )
      .then(readWithdrawals),
  ]);
  const overall = figures.find((f) => f.total !== 0)!;
  const reasonOrder = (reason: string | null) => {
    const i = WITHDRAWAL_REASONS.indexOf(reason as WithdrawalReason);
    return i < 0 ? WITHDRAWAL_REASONS.length : i;
  };
  return {
    report: 'flow',
    period: p,
    rows: figures
      .filter((f) => f.total === 0)
      .map((f) => ({
        period: f.period!,
        starts_on: f.starts_on!,
        referred: f.referred,
        started: f.started,
        completed: f.completed,
        withdrawn: f.withdrawn,
        active: f.active,
        median_days_to_start: f.median,
        p90_days_to_start: f.p90,
      })),
    withdrawal_reasons: reasons
      .sort((a, b) => reasonOrder(a.reason) - reasonOrder(b.reason))
      .map((r) => ({
        reason: WITHDRAWAL_REASONS.includes(r.reason as WithdrawalReason)
          ? (r.reason as WithdrawalReason)
          : null,
        count: r.n,
      })),
    days_to_start: { median: overall.median, p90: overall.p90 },
  };
}

const readAdherence = rowsReader({
  starts_on: column.date,
  period: column.text,
  as_of: nullable(column.date),
  on_track: nullable(column.integer),
  slightly_behind: nullable(column.integer),
  behind: nullable(column.integer),
  data_from: nullable(column.date),
});

async function adherence(c: ReportContext, p: ReportPeriod): Promise<ReportsAnswers['adherence']> {
  const rows = readAdherence(
    await c.db.execute(sql`
      with ${bucketsCte(p)}
      select to_char(b.starts_on, 'YYYY-MM-DD') as starts_on, b.period, to_char(h.day, 'YYYY-MM-DD') as as_of,
        h.on_track, h.slightly_behind, h.behind,
        (select to_char(min(day), 'YYYY-MM-DD') from adherence_history) as data_from
      from buckets b
      -- The bucket's last recorded day within the period (a range of the primary key), its sites' counts summed.
      left join lateral (
        select h.day, sum(h.on_track)::int as on_track, sum(h.slightly_behind)::int as slightly_behind,
          sum(h.behind)::int as behind
        from adherence_history h
        where h.day = (select max(l.day) from adherence_history l
                       where l.day between greatest(b.starts_on, ${p.from}::date) and least(b.ends_on, ${p.to}::date))
        group by h.day
      ) h on true
      order by b.starts_on`),
  );
  return {
    report: 'adherence',
    period: p,
    data_from: rows[0]?.data_from ?? null,
    rows: rows.map(({ data_from: _, ...row }) => row),
  };
}

const readProgrammeWeeks = rowsReader({
  video_set_id: column.integer,
  set_name: column.text,
  week: column.integer,
  reached: column.integer,
  watched_all: column.integer,
  still_active: column.integer,
});

async function programmeWeeks(c: ReportContext, p: ReportPeriod): Promise<ReportsAnswers['programme-weeks']> {
  const asOf = p.to < c.today ? p.to : c.today;
  const e = utcDays(c, p);
  // The programme weeks begun by asOf of someone who started on `started_on`.
  const begun = (startedOn: SQL) => sql`(${asOf}::date - ${startedOn}) / 7 + 1`;
  const rows = readProgrammeWeeks(
    await c.db.execute(sql`
      -- From the rollups kept by triggers (db/functions/programme-weeks.sql, report-cohort.sql),
      -- never a row per participant: who started in the period is report_cohort, counted in programme_starts
      -- per set, start day and discharge week; the weeks they watched in full by the period's end
      -- are programme_week_totals, less the completions of the UTC day the period ends in and
      -- after (programme_week_completions), plus those from that day's start to the period's end
      -- (seen_weeks, by the indexes of its completion instants). Materialized: each is computed once.
      with week_videos as (
        select v.fitness_video_set_id as set_id, v.week_number as week, count(*)::int as videos
        from videos v group by 1, 2
      ), starts as materialized (
        select s.fitness_video_set_id as set_id, ${begun(sql`s.started_on`)} as weeks_reached,
          s.discharge_week, s.participants
        from programme_starts s
        where s.started_on between ${p.from}::date and ${asOf}::date
      ), reached as materialized (
        -- Histograms (a row per set and week count), summed per week below.
        select set_id, weeks_reached as weeks, sum(participants) as n from starts group by 1, 2
      ), active as materialized (
        select set_id, least(weeks_reached, coalesce(discharge_week, weeks_reached)) as weeks, sum(participants) as n
        from starts group by 1, 2
      ), completed as materialized (
        select set_id, week, sum(n) as n from (
          select t.fitness_video_set_id as set_id, t.week_number as week, t.participants as n
          from programme_week_totals t
          where t.started_on between ${p.from}::date and ${asOf}::date
            and t.week_number <= ${begun(sql`t.started_on`)}
          union all
          select d.fitness_video_set_id, d.week_number, -d.participants
          from programme_week_completions d
          where d.day >= ${e.endDay} and d.started_on between ${p.from}::date and ${asOf}::date
            and d.week_number <= ${begun(sql`d.started_on`)}
          union all
          select w.fitness_video_set_id, w.week_number, w.n
          from (
            select participant_id, fitness_video_set_id, week_number, 1 as n from seen_weeks
            where completed_at >= ${e.endDayAt} and completed_at < ${e.end}
            union all
            select participant_id, fitness_video_set_id, week_number, -1 from seen_weeks
            where completed_until >= ${e.endDayAt} and completed_until < ${e.end}
          ) w
          join report_cohort m on m.participant_id = w.participant_id and m.fitness_video_set_id = w.fitness_video_set_id
          where m.started_on between ${p.from}::date and ${asOf}::date
            and w.week_number <= ${begun(sql`m.started_on`)}
        ) parts
        group by 1, 2
      )
      select s.fitness_video_set_id as video_set_id, s.set_name, wv.week,
        coalesce((select sum(r.n) from reached r where r.set_id = wv.set_id and r.weeks >= wv.week), 0)::int as reached,
        coalesce(done.n, 0)::int as watched_all,
        coalesce((select sum(a.n) from active a where a.set_id = wv.set_id and a.weeks >= wv.week), 0)::int as still_active
      from week_videos wv
      join fitness_video_sets s on s.fitness_video_set_id = wv.set_id and wv.week <= s.number_of_weeks
      left join completed done on done.set_id = wv.set_id and done.week = wv.week
      order by s.set_name collate "C", s.fitness_video_set_id, wv.week`),
  );
  return { report: 'programme-weeks', period: p, rows };
}

/**
 * The whole UTC days inside a period (video_day_views' days), firstDay included, endDay not, and
 * the instants they start: a report adds those days' rollup rows and counts the views before
 * firstDayAt and from max(firstDayAt, endDayAt) (the few hours at either edge) from seen_videos.
 * When the period holds no whole UTC day, firstDay >= endDay and the edges cover all of it.
 */
function utcDays(c: ReportContext, p: ReportPeriod) {
  const start = periodStart(c, p);
  const end = periodEnd(c, p);
  const firstDay = sql`((${start} - interval '1 microsecond') at time zone 'UTC')::date + 1`;
  const endDay = sql`(${end} at time zone 'UTC')::date`;
  return {
    start,
    end,
    firstDay,
    endDay,
    firstDayAt: sql`((${firstDay})::timestamp at time zone 'UTC')`,
    endDayAt: sql`((${endDay})::timestamp at time zone 'UTC')`,
  };
}

const readVideos = rowsReader({
  video_set_id: column.integer,
  set_name: column.text,
  video_id: column.integer,
  title: column.text,
  week: column.integer,
  day: column.integer,
  views: column.integer,
  least_watched: column.boolean,
});

async function videos(c: ReportContext, p: ReportPeriod): Promise<ReportsAnswers['videos']> {
  const e = utcDays(c, p);
  const rows = readVideos(
    await c.db.execute(sql`
      with counted as (
        select video_id, sum(n)::int as views from (
          select d.video_id, d.views::bigint as n from video_day_views d
          where d.day >= ${e.firstDay} and d.day < ${e.endDay}
          union all
          select sv.video_id, 1 from seen_videos sv
          where sv.created_at >= ${e.start} and sv.created_at < least(${e.end}, ${e.firstDayAt})
          union all
          select sv.video_id, 1 from seen_videos sv
          where sv.created_at >= greatest(${e.start}, ${e.firstDayAt}, ${e.endDayAt}) and sv.created_at < ${e.end}
        ) parts
        group by video_id
      ), per_video as (
        select v.fitness_video_set_id as video_set_id, s.set_name, v.video_id, v.title,
          v.week_number as week, v.day_number as day, coalesce(n.views, 0) as views
        from videos v
        join fitness_video_sets s on s.fitness_video_set_id = v.fitness_video_set_id
        left join counted n on n.video_id = v.video_id
      )
      select *,
        -- The set's least watched, when its videos were not all watched alike.
        views = min(views) over w and min(views) over w < max(views) over w as least_watched
      from per_video
      window w as (partition by video_set_id)
      order by set_name collate "C", video_set_id, week, day`),
  );
  return { report: 'videos', period: p, rows };
}

const readViews = rowsReader({ starts_on: column.date, period: column.text, views: column.integer });

async function views(c: ReportContext, p: ReportPeriod): Promise<ReportsAnswers['views']> {
  const rows = readViews(
    await c.db.execute(sql`
      with ${bucketsCte(p)}
      select to_char(b.starts_on, 'YYYY-MM-DD') as starts_on, b.period, coalesce(sum(d.views), 0)::int as views
      from buckets b
      left join daily_views d on d.day between greatest(b.starts_on, ${p.from}::date) and least(b.ends_on, ${p.to}::date)
      group by b.starts_on, b.period
      order by b.starts_on`),
  );
  return { report: 'views', period: p, rows };
}

const REPORTS: { [N in ReportName]: (c: ReportContext, p: ReportPeriod) => Promise<ReportsAnswers[N]> } = {
  referrals,
  flow,
  adherence,
  'programme-weeks': programmeWeeks,
  videos,
  views,
};

/**
 * One report, in a read-only transaction of its own: the statements see one snapshot, and
 * PostgreSQL does not compile them with LLVM first (for a statement read once, compiling costs
 * more than it saves: where people stop's plan, as for the daily check).
 */
export function reportOf<N extends ReportName>(
  c: ReportContext,
  name: N,
  period: ReportPeriod,
): Promise<ReportsAnswers[N]> {
  return c.db.transaction(
    async (tx) => {
      await tx.execute(sql`set local jit = off`);
      // Flow hashes and sorts a row per participant registered in the period (for its percentiles):
      // in memory rather than through temporary files (the default work_mem spills at scale).
      await tx.execute(sql`set local work_mem = '64MB'`);
      return REPORTS[name]({ ...c, db: tx }, period);
    },
    { accessMode: 'read only' },
  );
}

/** One report for `actor`, whose read is audited as a view of aggregate data. */
export async function viewReport<N extends ReportName>(
  c: ReportContext,
  audit: AuditService,
  actor: AuditActor,
  name: N,
  period: ReportPeriod,
  siteId?: number,
): Promise<ReportsAnswers[N]> {
  const answer = await reportOf(c, name, period);
  await audit.record(actor, {
    action: 'report.view',
    detail: `${name} ${period.from}..${period.to} by ${period.by}${siteDetail(siteId)}`,
  });
  return answer;
}
