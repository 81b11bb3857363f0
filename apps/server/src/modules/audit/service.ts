import { Readable } from 'node:stream';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { AUDIT_CSV_COLUMNS, csvCell, type AuditAction, type AuditPage } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { inScope } from '../../db/scope.js';
import { auditEvents } from '../../db/schema.js';
import { pageOf } from '../../lib/paging.js';
import { presentAuditEvent } from './presenter.js';

export interface AuditActor {
  /** Null for a sign-in attempt under a user name that matches no admin. */
  adminUserId: number | null;
  userName: string;
  ip: string | null;
  /**
   * Whose trail the record joins, when there is no scope to say it (a sign-in, looked up among
   * every organisation's admins): the admin's organisation, or null for the instance's own.
   * Otherwise the scope's organisation (the column's default).
   */
  organisationId?: number | null;
}

export interface AuditEntry {
  action: AuditAction;
  participantId?: number | null;
  /** For a list read: every participant whose identifiable data it returned. */
  participantIds?: number[];
  /** Which fields or rows were involved; never a value of them. */
  detail?: string | null;
}

/** One CSV cell convention for every export (the contract's, shared with the Reports page). */
export { csvCell };

const EXPORT_BATCH = 2000;

/**
 * The audit trail: who read or changed identifiable data, when and from where. Entries are written
 * in the same transaction as the change they describe (pass the transaction as `db`), and before
 * identifiable data is sent, so nothing is shown or changed without its record.
 */
export class AuditService {
  constructor(private readonly db: Database) {}

  async record(actor: AuditActor, entry: AuditEntry, db: Database = this.db): Promise<void> {
    await this.recordMany(actor, [entry], db);
  }

  async recordMany(actor: AuditActor, entries: AuditEntry[], db: Database = this.db): Promise<void> {
    if (entries.length === 0) return;
    await db.insert(auditEvents).values(
      entries.map((e) => ({
        admin_user_id: actor.adminUserId,
        admin_user_name: actor.userName,
        action: e.action,
        participant_id: e.participantId ?? null,
        participant_ids: e.participantIds?.length ? e.participantIds : null,
        detail: e.detail ?? null,
        ip: actor.ip,
        ...(actor.organisationId !== undefined && { organisation_id: actor.organisationId }),
      })),
    );
  }

  /** Newest first. */
  async list(page: number, perPage: number, action?: AuditAction): Promise<AuditPage> {
    const kind = action ? eq(auditEvents.action, action) : undefined;
    // An aggregate without GROUP BY returns exactly one row.
    const { total } = (
      await this.db
        .select({ total: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(kind)
    )[0]!;
    // Offset over the primary key alone (an index-only scan), then fetch just this page's rows.
    const ids = this.db
      .select({ id: auditEvents.audit_event_id })
      .from(auditEvents)
      .where(kind)
      .orderBy(desc(auditEvents.audit_event_id))
      .limit(perPage)
      .offset((page - 1) * perPage);
    const rows = await this.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.audit_event_id, ids))
      .orderBy(desc(auditEvents.audit_event_id));
    return { data: rows.map(presentAuditEvent), pagination: pageOf(total, page, perPage, rows.length, null) };
  }

  /** The trail's export for `actor`: recorded before the first row is made, so it includes its own record. */
  async exportFor(actor: AuditActor, action?: AuditAction): Promise<Readable> {
    await this.record(actor, { action: 'audit.export', detail: action ? `kind ${action}` : 'every kind' });
    return this.exportCsv(action);
  }

  /** The whole trail as CSV, newest first, read in batches so memory stays flat however long it is. */
  private exportCsv(action?: AuditAction): Readable {
    const db = this.db;
    const kind = action ? eq(auditEvents.action, action) : undefined;
    async function* lines() {
      yield `${AUDIT_CSV_COLUMNS.join(',')},action_label\r\n`;
      let before: number | null = null;
      for (;;) {
        const batch: (typeof auditEvents.$inferSelect)[] = await db
          .select()
          .from(auditEvents)
          .where(and(kind, before === null ? undefined : lt(auditEvents.audit_event_id, before)))
          .orderBy(desc(auditEvents.audit_event_id))
          .limit(EXPORT_BATCH);
        if (batch.length === 0) return;
        let chunk = '';
        for (const row of batch) {
          const event = presentAuditEvent(row);
          chunk += `${[...AUDIT_CSV_COLUMNS.map((c) => csvCell(event[c])), csvCell(event.action_label)].join(',')}\r\n`;
        }
        yield chunk;
        before = batch[batch.length - 1]!.audit_event_id;
      }
    }
    return Readable.from(inScope(lines()));
  }
}
