import { asc, eq, sql } from 'drizzle-orm';
import {
  MEASURE_FIELDS_ALWAYS_EDITABLE,
  measureProblems,
  messages,
  type CreateMeasureInput,
  type Measure,
  type MeasureDefinition,
  type UpdateMeasureInput,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { outcomeMeasures } from '../../db/schema.js';
import { uniqueViolation } from '../../lib/db-errors.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { measureDefinition, presentMeasure, type MeasureRow } from './presenter.js';

const m = messages.outcomes;

/** Whether any result (or amendment) names the measure. */
const hasResults = (id: number) =>
  sql<boolean>`exists (select 1 from assessment_results r where r.measure_id = ${id})`;

/** The first problem of a whole measure, as the 400 a body's own check would give. */
function refuseProblems(definition: MeasureDefinition): void {
  const [first] = measureProblems(definition);
  if (first) {
    throw new HttpError(
      400,
      first.message,
      {},
      { errors: [{ field: first.path.join('.'), message: first.message }] },
    );
  }
}

/**
 * The catalogue of outcome measures: data that full access extends without a release. A measure
 * with results keeps what it records: only its name and whether it is retired may change then.
 */
export class MeasureCatalogue {
  constructor(
    private readonly db: Database,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<Measure[]> {
    const rows = await this.db
      .select({
        row: outcomeMeasures,
        has_results: sql<boolean>`exists (select 1 from assessment_results r where r.measure_id = ${outcomeMeasures.measure_id})`,
      })
      .from(outcomeMeasures)
      .orderBy(asc(outcomeMeasures.measure_id));
    return rows.map(({ row, has_results }) => presentMeasure(row, has_results));
  }

  private async refuseTakenCode(tx: Database, code: string, except?: number): Promise<void> {
    const [taken] = await tx
      .select({ id: outcomeMeasures.measure_id })
      .from(outcomeMeasures)
      .where(sql`lower(${outcomeMeasures.code}) = lower(${code})`);
    if (taken && taken.id !== except) throw conflict(m.codeTaken(code));
  }

  async create(body: CreateMeasureInput, actor: AuditActor): Promise<Measure> {
    try {
      return await this.db.transaction(async (tx) => {
        await this.refuseTakenCode(tx, body.code);
        const [row] = await tx
          .insert(outcomeMeasures)
          .values({
            ...body,
            scoring: body.kind === 'questionnaire' ? body.scoring : null,
            items: body.kind === 'questionnaire' ? body.items : null,
          })
          .returning();
        await this.audit.record(
          actor,
          { action: 'measure.create', detail: `${body.code} (${body.kind})` },
          tx,
        );
        return presentMeasure(row!, false);
      });
    } catch (error) {
      // Two admins adding the same code at once: the unique index decides.
      if (uniqueViolation(error) === 'outcome_measures_code_key') throw conflict(m.codeTaken(body.code));
      throw error;
    }
  }

  async update(id: number, body: UpdateMeasureInput, actor: AuditActor): Promise<Measure> {
    const changed = Object.keys(body).filter((k) => body[k as keyof UpdateMeasureInput] !== undefined);
    try {
      return await this.db.transaction(async (tx) => {
        // The row lock makes a first result recorded meanwhile wait (its reference to the measure
        // needs a key-share lock), so "has no results" holds until this change commits.
        const [current] = await tx
          .select({ row: outcomeMeasures, has_results: hasResults(id) })
          .from(outcomeMeasures)
          .where(eq(outcomeMeasures.measure_id, id))
          .for('update', { of: outcomeMeasures });
        if (!current) throw notFound(m.measureNotFound);
        const editableOnce = new Set<string>(MEASURE_FIELDS_ALWAYS_EDITABLE);
        if (current.has_results && changed.some((k) => !editableOnce.has(k))) throw conflict(m.hasResults);
        const { retired, ...fields } = body;
        const next: MeasureDefinition = { ...measureDefinition(current.row) };
        for (const [key, value] of Object.entries(fields)) {
          if (value !== undefined) (next as unknown as Record<string, unknown>)[key] = value;
        }
        if (!current.has_results) {
          if (next.kind === 'numeric') {
            next.scoring = null;
            next.items = null;
          }
          refuseProblems(next);
          if (next.code.toLowerCase() !== current.row.code.toLowerCase())
            await this.refuseTakenCode(tx, next.code, id);
        }
        const [row] = await tx
          .update(outcomeMeasures)
          .set({ ...next, ...(retired !== undefined && { retired }), updated_at: new Date() })
          .where(eq(outcomeMeasures.measure_id, id))
          .returning();
        await this.audit.record(
          actor,
          { action: 'measure.update', detail: `${row!.code}: ${changed.join(', ') || 'nothing'}` },
          tx,
        );
        return presentMeasure(row!, current.has_results);
      });
    } catch (error) {
      if (uniqueViolation(error) === 'outcome_measures_code_key')
        throw conflict(m.codeTaken(body.code ?? ''));
      throw error;
    }
  }
}

/** A measure by its code (case does not matter), locked so that it cannot change under a result being recorded. */
export async function measureByCode(tx: Database, code: string): Promise<MeasureRow> {
  const [row] = await tx
    .select()
    .from(outcomeMeasures)
    .where(sql`lower(${outcomeMeasures.code}) = lower(${code})`)
    .for('key share');
  if (!row) throw badRequest(m.unknownMeasure(code));
  return row;
}

/** A measure by id, locked as above. */
export async function measureById(tx: Database, id: number): Promise<MeasureRow> {
  const [row] = await tx
    .select()
    .from(outcomeMeasures)
    .where(eq(outcomeMeasures.measure_id, id))
    .for('key share');
  if (!row) throw notFound(m.measureNotFound);
  return row;
}
