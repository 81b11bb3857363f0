import { sql } from 'drizzle-orm';
import { messages, PARTICIPANT_STATUSES, type RecordsDue } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { column, rowsReader } from '../../db/rows.js';
import { idArray } from '../../db/select-rows.js';
import { conflict } from '../../lib/http-error.js';
import { programmeToday } from '../../lib/programme-day.js';
import { type AuditActor, AuditService } from '../audit/index.js';

/**
 * Records kept, reviewed, destroyed. A discharged participant's record is
 * due for review PARTICIPANT_RETENTION_YEARS after the discharge date (on that day itself). The
 * retention job only counts them; nothing is destroyed until a person selects records on the
 * Records due for review screen and confirms.
 *
 * Destruction removes every row about the participant from every table: the tables whose rows
 * name them by participant_id, found in the catalogue (so a table added later, with a
 * participant_id column, is covered without a change here), the participant last. It leaves one
 * audit record per participant (their id, the discharge date and outcome; who approved and when
 * are the record's own admin and time) and nothing identifiable. The audit trail's earlier
 * records about them are kept: they hold the bare participant id and no identifiable value, and
 * they are the record of who accessed the data, kept for AUDIT_RETENTION_DAYS
 * (docs/participant-life-cycle.md says why).
 */

const readDue = rowsReader({
  participant_id: column.integer,
  first_name: column.text,
  last_name: column.text,
  date_of_birth: column.date,
  status: column.oneOf(PARTICIPANT_STATUSES),
  discharged_on: column.date,
  review_due_on: column.date,
});
type DueRow = ReturnType<typeof readDue>[number];

const readTableNames = rowsReader({ table_name: column.text });

/**
 * Tables not deleted from by name: the audit trail is kept (see above); participant_adherence goes
 * by the cascade of the participant's own delete, after the tally's trigger has read their class
 * from it to count them out (db/participant-tally.ts).
 */
const NOT_DELETED_BY_NAME = new Set(['audit_events', 'participant_adherence']);

/** The tables (public schema) with a participant_id column, the participants table last. */
export async function tablesAboutParticipants(db: Database): Promise<string[]> {
  const rows = readTableNames(
    await db.execute(sql`
      select c.table_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and c.column_name = 'participant_id' and t.table_type = 'BASE TABLE'
      order by (c.table_name = 'participants'), c.table_name`),
  );
  return rows.map((r) => r.table_name);
}

/** A catalogue name written into SQL as a quoted identifier. */
export function quoted(name: string) {
  return sql.raw(`"${name.replace(/"/g, '""')}"`);
}

export class RecordsService {
  private readonly audit: AuditService;

  constructor(private readonly ctx: AppContext) {
    this.audit = new AuditService(ctx.db);
  }

  private get years(): number {
    return this.ctx.config.retention.participantYears;
  }

  /** Discharged participants whose review day has come, discharged longest ago first. */
  async dueRows(db: Database = this.ctx.db, ids?: number[]): Promise<DueRow[]> {
    const today = programmeToday(this.ctx);
    const only = ids ? sql`and p.participant_id = any(${idArray(ids)})` : sql``;
    return readDue(
      await db.execute(sql`
        select p.participant_id, p.first_name, p.last_name, to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth,
          p.status, to_char(p.discharged_on, 'YYYY-MM-DD') as discharged_on,
          to_char(p.discharged_on + make_interval(years => ${this.years}::int), 'YYYY-MM-DD') as review_due_on
        from participants p
        where p.status <> 'active' and p.discharged_on is not null
          and p.discharged_on + make_interval(years => ${this.years}::int) <= ${today}::date
          ${only}
        order by p.discharged_on, p.participant_id
        ${ids ? sql`for update` : sql``}`),
    );
  }

  async countDue(): Promise<number> {
    return (await this.dueRows()).length;
  }

  /** The Records due for review screen; the read (names and dates of birth) is audited. */
  async due(actor: AuditActor): Promise<RecordsDue> {
    const rows = await this.dueRows();
    if (rows.length > 0) {
      await this.audit.record(actor, {
        action: 'records.due',
        participantIds: rows.map((r) => r.participant_id),
        detail: `${rows.length} ${rows.length === 1 ? 'record' : 'records'} due for review: first_name, last_name, date_of_birth`,
      });
    }
    return { retention_years: this.years, data: rows };
  }

  /**
   * Destroys the selected records, all or none: every id must be a record due for review now,
   * else nothing is destroyed (409 naming the others). One transaction.
   */
  async destroy(ids: number[], actor: AuditActor): Promise<number[]> {
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    return this.ctx.db.transaction(async (tx) => {
      const due = await this.dueRows(tx, unique);
      const dueIds = new Set(due.map((r) => r.participant_id));
      const notDue = unique.filter((id) => !dueIds.has(id));
      if (notDue.length > 0) throw conflict(messages.records.notDue(notDue));
      const tables = (await tablesAboutParticipants(tx)).filter((t) => !NOT_DELETED_BY_NAME.has(t));
      const idList = idArray(unique);
      for (const table of tables) {
        await tx.execute(sql`delete from ${quoted(table)} where participant_id = any(${idList})`);
      }
      await this.audit.recordMany(
        actor,
        due.map((r) => ({
          action: 'records.destroy' as const,
          participantId: r.participant_id,
          detail: `discharged on ${r.discharged_on} (${r.status}); retention ${this.years} years, due for review on ${r.review_due_on}`,
        })),
        tx,
      );
      return unique;
    });
  }
}
