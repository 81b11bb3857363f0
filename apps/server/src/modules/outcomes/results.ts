import { and, desc, eq, inArray, or } from 'drizzle-orm';
import {
  RECORDING_AFTER_DISCHARGE_DAYS,
  addDays,
  calendarDate,
  can,
  hasAtMostDecimals,
  messages,
  scoreAnswers,
  unitLabel,
  type AmendAssessmentInput,
  type AssessmentEntry,
  type ParticipantOutcomes,
  type RecordAssessmentInput,
  type Role,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import {
  assessmentResults,
  outcomeMeasures,
  participants,
  participationProgress,
  videoSets,
} from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { measureById, measureByCode } from './measures.js';
import { presentResult, type MeasureRow, type ResultRow } from './presenter.js';
import { scheduleOf } from './schedule.js';
import { currentResults, outcomesOf, type ParticipantFacts } from './timeline.js';

const m = messages.outcomes;

export interface Staff extends AuditActor {
  role: Role;
}

export interface OutcomesClock {
  today: string;
  timeZone: string;
  now: Date;
}

interface Participant {
  facts: ParticipantFacts;
  programme: ParticipantOutcomes['programme'];
}

/** The value a result records: checked against its measure, and the score the server computes. */
function scored(
  measure: MeasureRow,
  given: { value?: number | undefined; answers?: Record<string, number> | undefined },
): { value: number | null; answers: Record<string, number> | null; score: number } {
  if (measure.kind === 'numeric') {
    if (given.answers !== undefined) throw badRequest(m.answersForNumeric);
    if (given.value === undefined) throw badRequest(m.valueRequired);
    const value = given.value;
    if (value < measure.min || value > measure.max)
      throw badRequest(m.valueOutOfRange(measure.min, measure.max, unitLabel(measure.unit)));
    if (!hasAtMostDecimals(value, measure.decimals)) throw badRequest(m.valueDecimals(measure.decimals));
    return { value, answers: null, score: value };
  }
  if (given.value !== undefined) throw badRequest(m.valueForQuestionnaire);
  if (given.answers === undefined) throw badRequest(m.answersRequired);
  const items = measure.items ?? [];
  const known = new Set(items.map((item) => item.item_id));
  for (const id of Object.keys(given.answers)) if (!known.has(id)) throw badRequest(m.itemUnknown(id));
  const answers: Record<string, number> = {};
  for (const item of items) {
    const answer = given.answers[item.item_id];
    if (answer === undefined) throw badRequest(m.itemUnanswered(item.item_id));
    if (!item.answers.some((a) => a.value === answer)) throw badRequest(m.answerInvalid(item.item_id));
    answers[item.item_id] = answer;
  }
  const score = scoreAnswers(
    { scoring: measure.scoring as 'sum' | 'mean', items, decimals: measure.decimals },
    answers,
  );
  return { value: null, answers, score };
}

/**
 * Results of outcome measures, recorded against a participant by staff (at a clinic visit or by
 * phone). Append-only: a correction is an amendment with a reason, and the original stays. Every
 * change is audited in its own transaction.
 */
export class ResultService {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  /**
   * The participant's facts the timeline reads, with a share lock on their row: a discharge or a
   * deletion waits for the result being written, and the result sees the status it was written under.
   */
  private async participant(
    tx: Database,
    id: number,
    clock: OutcomesClock,
    lock: boolean,
  ): Promise<Participant> {
    const query = tx
      .select({
        created_at: participants.created_at,
        status: participants.status,
        discharged_on: participants.discharged_on,
        set_id: participationProgress.fitness_video_set_id,
        started_date: participationProgress.started_date,
        set_name: videoSets.set_name,
        weeks: videoSets.number_of_weeks,
      })
      .from(participants)
      .leftJoin(participationProgress, eq(participationProgress.participant_id, participants.participant_id))
      .leftJoin(videoSets, eq(videoSets.fitness_video_set_id, participationProgress.fitness_video_set_id))
      .where(eq(participants.participant_id, id));
    const [row] = lock ? await query.for('share', { of: participants }) : await query;
    if (!row) throw notFound(messages.participant.notFound);
    const programme =
      row.set_id !== null && row.started_date !== null && row.weeks !== null
        ? {
            video_set_id: row.set_id,
            set_name: row.set_name ?? '',
            started_date: row.started_date,
            number_of_weeks: row.weeks,
          }
        : null;
    return {
      programme,
      facts: {
        registered_on: calendarDate(row.created_at, clock.timeZone),
        status: row.status as ParticipantFacts['status'],
        discharged_on: row.discharged_on,
        programme: programme && {
          started_date: programme.started_date,
          number_of_weeks: programme.number_of_weeks,
        },
      },
    };
  }

  /** A discharge leaves 4 weeks to record the end of the programme; then the record is closed. */
  private refuseClosed(p: ParticipantFacts, clock: OutcomesClock): void {
    if (p.discharged_on && addDays(p.discharged_on, RECORDING_AFTER_DISCHARGE_DAYS) < clock.today)
      throw conflict(m.dischargedTooLongAgo);
  }

  async record(
    participantId: number,
    body: RecordAssessmentInput,
    staff: Staff,
    clock: OutcomesClock,
  ): Promise<AssessmentEntry> {
    if (body.taken_on > clock.today) throw badRequest(m.dateInFuture);
    return this.db.transaction(async (tx) => {
      const { facts } = await this.participant(tx, participantId, clock, true);
      this.refuseClosed(facts, clock);
      if (body.taken_on < facts.registered_on) throw badRequest(m.dateBeforeRegistration);
      if (body.week !== undefined && facts.programme && body.week > facts.programme.number_of_weeks)
        throw badRequest(m.weekOutOfRange(facts.programme.number_of_weeks));
      const measure = await measureByCode(tx, body.measure);
      if (measure.retired) throw badRequest(m.measureRetired(measure.code));
      const result = scored(measure, body);
      const [row] = await tx
        .insert(assessmentResults)
        .values({
          participant_id: participantId,
          measure_id: measure.measure_id,
          timepoint: body.timepoint,
          week: body.week ?? null,
          taken_on: body.taken_on,
          ...result,
          note: body.note ?? null,
          admin_user_id: staff.adminUserId,
          admin_user_name: staff.userName,
          created_at: clock.now,
        })
        .returning();
      await this.audit.record(
        staff,
        {
          action: 'assessment.create',
          participantId,
          detail: `${measure.code}, ${body.timepoint}${body.week ? ` week ${body.week}` : ''}, taken ${body.taken_on}${body.note ? ', note' : ''}`,
        },
        tx,
      );
      return presentResult(row!, measure, false, staff.role);
    });
  }

  async amend(
    participantId: number,
    assessmentId: number,
    body: AmendAssessmentInput,
    staff: Staff,
    clock: OutcomesClock,
  ): Promise<AssessmentEntry> {
    return this.db.transaction(async (tx) => {
      const { facts } = await this.participant(tx, participantId, clock, true);
      this.refuseClosed(facts, clock);
      const [target] = await tx
        .select()
        .from(assessmentResults)
        .where(
          and(
            eq(assessmentResults.assessment_id, assessmentId),
            eq(assessmentResults.participant_id, participantId),
          ),
        );
      if (!target) throw notFound(m.assessmentNotFound);
      const root = target.amends ?? target.assessment_id;
      // The first result's lock orders two corrections of the same result made at once.
      await tx
        .select({ id: assessmentResults.assessment_id })
        .from(assessmentResults)
        .where(eq(assessmentResults.assessment_id, root))
        .for('update');
      const [newest] = await tx
        .select()
        .from(assessmentResults)
        .where(or(eq(assessmentResults.assessment_id, root), eq(assessmentResults.amends, root)))
        .orderBy(desc(assessmentResults.assessment_id))
        .limit(1);
      if (newest!.entered_in_error) throw conflict(m.alreadyEnteredInError);
      const measure = await measureById(tx, target.measure_id);
      const result = body.entered_in_error
        ? { value: null, answers: null, score: null }
        : scored(measure, body);
      const [row] = await tx
        .insert(assessmentResults)
        .values({
          participant_id: participantId,
          measure_id: target.measure_id,
          timepoint: target.timepoint,
          week: target.week,
          taken_on: target.taken_on,
          ...result,
          entered_in_error: body.entered_in_error === true,
          amends: root,
          reason: body.reason,
          admin_user_id: staff.adminUserId,
          admin_user_name: staff.userName,
          created_at: clock.now,
        })
        .returning();
      await this.audit.record(
        staff,
        {
          action: 'assessment.amend',
          participantId,
          detail: `result ${root} (${measure.code}, ${target.timepoint}): ${
            body.entered_in_error ? 'entered in error' : body.answers ? 'new answers' : 'new value'
          }, reason`,
        },
        tx,
      );
      return presentResult(row!, measure, false, staff.role);
    });
  }

  /** Every result and amendment, newest first; full access reads notes and reasons (audited). */
  async list(participantId: number, staff: Staff, clock: OutcomesClock): Promise<AssessmentEntry[]> {
    return this.db.transaction(async (tx) => {
      await this.participant(tx, participantId, clock, false);
      const rows = await tx
        .select({ row: assessmentResults, code: outcomeMeasures.code, unit: outcomeMeasures.unit })
        .from(assessmentResults)
        .innerJoin(outcomeMeasures, eq(outcomeMeasures.measure_id, assessmentResults.measure_id))
        .where(eq(assessmentResults.participant_id, participantId))
        .orderBy(desc(assessmentResults.assessment_id));
      const newestOfChain = new Map<number, number>();
      for (const { row } of rows) {
        const root = row.amends ?? row.assessment_id;
        newestOfChain.set(root, Math.max(newestOfChain.get(root) ?? 0, row.assessment_id));
      }
      if (can(staff.role, 'participants.identifiable') && rows.length > 0) {
        await this.audit.record(
          staff,
          { action: 'assessment.list', participantId, detail: `${rows.length} entries` },
          tx,
        );
      }
      return rows.map(({ row, code, unit }) =>
        presentResult(
          row,
          { code, unit },
          newestOfChain.get(row.amends ?? row.assessment_id) !== row.assessment_id,
          staff.role,
        ),
      );
    });
  }

  /** What is due for the participant by their set's schedule, and each current result against the baseline. */
  async outcomes(participantId: number, clock: OutcomesClock): Promise<ParticipantOutcomes> {
    const { facts, programme } = await this.participant(this.db, participantId, clock, false);
    const rows = await currentRows(this.db, [participantId]);
    const schedule = programme ? (await scheduleOf(this.db, programme.video_set_id)).timepoints : [];
    const measureIds = [...new Set(rows.map((r) => r.measure_id))];
    const codes = schedule.flatMap((t) => t.measures);
    const measures = await this.db
      .select({
        measure_id: outcomeMeasures.measure_id,
        code: outcomeMeasures.code,
        mcid: outcomeMeasures.mcid,
        higher_is_better: outcomeMeasures.higher_is_better,
        decimals: outcomeMeasures.decimals,
        retired: outcomeMeasures.retired,
      })
      .from(outcomeMeasures)
      .where(
        or(
          measureIds.length > 0 ? inArray(outcomeMeasures.measure_id, measureIds) : undefined,
          codes.length > 0 ? inArray(outcomeMeasures.code, codes) : undefined,
        ) ?? eq(outcomeMeasures.measure_id, -1),
      );
    return { programme, ...outcomesOf(schedule, measures, currentResults(rows), facts, clock.today) };
  }
}

/** Every row (results and amendments) of some participants, for folding into current results. */
export async function currentRows(db: Database, ids: number[]): Promise<ResultRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(assessmentResults).where(inArray(assessmentResults.participant_id, ids));
}
