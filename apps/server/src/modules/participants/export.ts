import { Readable } from 'node:stream';
import {
  FIELD_PERMISSIONS,
  ADHERENCE_LABELS,
  can,
  IDENTIFIABLE_SORTS,
  NO_PROGRAMME_LABEL,
  PARTICIPANT_CSV_BASIC_COLUMNS,
  PARTICIPANT_CSV_FULL_COLUMNS,
  messages,
  type ParticipantExportQuery,
} from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { inScope } from '../../db/scope.js';
import { forbidden } from '../../lib/http-error.js';
import { siteDetail } from '../../lib/site-filter.js';
import { type AuditService, csvCell } from '../audit/index.js';
import { lastContactsOf } from '../followup/index.js';
import { presentParticipant } from './presenter.js';
import {
  ParticipantRepository,
  participantPositionOf,
  type ListFilter,
  type ListOrder,
  type ParticipantCursor,
} from './repository.js';
import type { Staff } from './service.js';

/** Rows per keyset batch: memory stays flat however long the list, and each batch is one audit entry. */
export const EXPORT_BATCH = 2000;

export interface ParticipantExport {
  /** Rows the CSV will hold (taken when the export starts). */
  total: number;
  csv: Readable;
}

/**
 * The whole participant list as the grid shows it (filtered, searched and sorted), as CSV. Rows
 * are read in keyset batches (each an index range, as cheap at the end of 100k rows as at the
 * start) and streamed as they come, never held all at once. Each batch a full-access admin
 * receives is recorded in the audit trail with its participants before it is sent, as a page of
 * the list is; a basic-access admin receives non-identifiable columns only.
 */
export async function exportParticipants(
  db: Database,
  audit: AuditService,
  query: ParticipantExportQuery,
  staff: Staff,
): Promise<ParticipantExport> {
  const full = can(staff.role, FIELD_PERMISSIONS.identifiable);
  if (!full && IDENTIFIABLE_SORTS.includes(query.sort)) throw forbidden(messages.participant.sortForbidden);
  const repo = new ParticipantRepository(db);
  const filter: ListFilter = {
    state: query.state,
    status: query.status,
    q: query.q,
    searchIdentifiable: full,
  };
  const order: ListOrder = { sort: query.sort, order: query.order };
  const columns = full ? PARTICIPANT_CSV_FULL_COLUMNS : PARTICIPANT_CSV_BASIC_COLUMNS;
  const total = await repo.count(filter);
  const where = `, status ${query.status}${query.state ? `, state ${query.state}` : ''}${siteDetail(query.site_id)}${query.q ? ', search' : ''}, sort ${query.sort} ${query.order}`;

  async function* lines() {
    // A byte-order mark, so spreadsheet programs read names with accents as UTF-8.
    yield `\uFEFF${columns.join(',')}\r\n`;
    let cursor: ParticipantCursor | undefined;
    let sent = 0;
    for (;;) {
      const { rows } = await repo.page({ filter, order, limit: EXPORT_BATCH, offset: 0, cursor });
      if (rows.length === 0) return;
      if (full) {
        await audit.record(staff, {
          action: 'participant.export',
          participantIds: rows.map((r) => r.participant_id),
          detail: `rows ${sent + 1}-${sent + rows.length}${where}, ${columns.join(', ')}`,
        });
      }
      const contacts = await lastContactsOf(
        db,
        rows.map((r) => r.participant_id),
      );
      let chunk = '';
      for (const row of rows) {
        const p = presentParticipant(row, staff.role);
        const contact = contacts.get(row.participant_id);
        const cells: Record<string, unknown> = {
          ...p,
          tracking: p.adherence_state ? ADHERENCE_LABELS[p.adherence_state] : NO_PROGRAMME_LABEL,
          last_contact_at: contact?.created_at.toISOString(),
          last_contact_method: contact?.method,
          last_contact_outcome: contact?.outcome,
        };
        chunk += `${columns.map((c) => csvCell(cells[c])).join(',')}\r\n`;
      }
      yield chunk;
      sent += rows.length;
      if (rows.length < EXPORT_BATCH) return;
      cursor = participantPositionOf(order, rows[rows.length - 1]!);
    }
  }
  return { total, csv: Readable.from(inScope(lines())) };
}
