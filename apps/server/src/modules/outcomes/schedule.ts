import { asc, eq, inArray, sql } from 'drizzle-orm';
import { TIMEPOINTS, messages, type AssessmentSchedule, type Timepoint } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { assessmentSchedules, outcomeMeasures, videoSets } from '../../db/schema.js';
import { badRequest, notFound } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';

const m = messages.outcomes;

/** A set's schedule as stored: baseline, interims by week, end; measures in the order given. */
export async function scheduleOf(db: Database, setId: number): Promise<AssessmentSchedule> {
  const rows = await db
    .select({
      timepoint: assessmentSchedules.timepoint,
      week: assessmentSchedules.week,
      code: outcomeMeasures.code,
    })
    .from(assessmentSchedules)
    .innerJoin(outcomeMeasures, eq(outcomeMeasures.measure_id, assessmentSchedules.measure_id))
    .where(eq(assessmentSchedules.fitness_video_set_id, setId))
    .orderBy(
      sql`array_position(array['baseline', 'interim', 'end']::text[], ${assessmentSchedules.timepoint})`,
      asc(assessmentSchedules.week),
      asc(assessmentSchedules.position),
    );
  const timepoints: AssessmentSchedule['timepoints'] = [];
  for (const row of rows) {
    const last = timepoints.at(-1);
    if (last && last.timepoint === row.timepoint && (last.week ?? null) === row.week)
      last.measures.push(row.code);
    else
      timepoints.push({
        timepoint: row.timepoint as Timepoint,
        ...(row.week !== null && { week: row.week }),
        measures: [row.code],
      });
  }
  return { timepoints };
}

/** Each video set names when to assess its participants, and with which measures. */
export class ScheduleService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  async get(setId: number): Promise<AssessmentSchedule> {
    const [set] = await this.db
      .select({ id: videoSets.fitness_video_set_id })
      .from(videoSets)
      .where(eq(videoSets.fitness_video_set_id, setId));
    if (!set) throw notFound(messages.videoSet.notFound);
    return scheduleOf(this.db, setId);
  }

  /** Replaces the whole schedule; every measure must exist and not be retired, every week be the set's. */
  async save(setId: number, body: AssessmentSchedule, actor: AuditActor): Promise<AssessmentSchedule> {
    return this.db.transaction(async (tx) => {
      const [set] = await tx
        .select({ weeks: videoSets.number_of_weeks })
        .from(videoSets)
        .where(eq(videoSets.fitness_video_set_id, setId))
        .for('update');
      if (!set) throw notFound(messages.videoSet.notFound);
      const codes = [...new Set(body.timepoints.flatMap((t) => t.measures.map((c) => c.toLowerCase())))];
      const measures =
        codes.length === 0
          ? []
          : await tx
              .select({
                id: outcomeMeasures.measure_id,
                code: outcomeMeasures.code,
                retired: outcomeMeasures.retired,
              })
              .from(outcomeMeasures)
              .where(inArray(sql`lower(${outcomeMeasures.code})`, codes))
              .for('key share');
      const byCode = new Map(measures.map((row) => [row.code.toLowerCase(), row]));
      const rows: (typeof assessmentSchedules.$inferInsert)[] = [];
      for (const t of body.timepoints) {
        if (t.week !== undefined && t.week > set.weeks) throw badRequest(m.weekOutOfRange(set.weeks));
        t.measures.forEach((code, position) => {
          const measure = byCode.get(code.toLowerCase());
          if (!measure) throw badRequest(m.unknownMeasure(code));
          if (measure.retired) throw badRequest(m.measureRetired(measure.code));
          rows.push({
            fitness_video_set_id: setId,
            timepoint: t.timepoint,
            week: t.week ?? null,
            measure_id: measure.id,
            position,
          });
        });
      }
      await tx.delete(assessmentSchedules).where(eq(assessmentSchedules.fitness_video_set_id, setId));
      if (rows.length > 0) await tx.insert(assessmentSchedules).values(rows);
      await this.audit.record(
        actor,
        {
          action: 'schedule.update',
          detail: `set ${setId}: ${
            TIMEPOINTS.map((tp) => {
              const n = body.timepoints.filter((t) => t.timepoint === tp).length;
              return n > 0 ? `${tp} ${n}` : null;
            })
              .filter(Boolean)
              .join(', ') || 'none'
          }`,
        },
        tx,
      );
      return scheduleOf(tx, setId);
    });
  }
}
