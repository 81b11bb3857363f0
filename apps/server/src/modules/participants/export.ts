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

/**
 * Rows per piece of a batch's CSV text (about 32 KB, 64 KB if a name needs two bytes a character):
 * under V8's largest ordinary object (128 KB), so a piece sent is collected with the young
 * generation. A batch's text whole (260 KB) went to the large-object space, where each waited for
 * a full collection: 12 MB more of the heap after each whole-list export.
 */
const TEXT_ROWS = 250;

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

  /**
   * One batch as CSV text: its rows read after `cursor`, audited (full access), with their last
   * contacts. Its own function, so that the generator below, suspended at its `yield` while the
   * batch is sent and the next one read, refers to the batch's text and nothing else of it.
   */
  async function batch(cursor: ParticipantCursor | undefined, sent: number) {
    const { rows } = await repo.page({ filter, order, limit: EXPORT_BATCH, offset: 0, cursor });
    if (rows.length === 0) return { count: 0, texts: [], next: undefined };
    const ids = rows.map((r) => r.participant_id);
    if (full) {
      await audit.record(staff, {
        action: 'participant.export',
        participantIds: ids,
        detail: `rows ${sent + 1}-${sent + rows.length}${where}, ${columns.join(', ')}`,
      });
    }
    const contacts = await lastContactsOf(db, ids);
    // Each row's cells are read from the presented participant one by one, not from a copy of it
    // with the export's columns added: such a copy per row is most of what a whole-list export
    // would allocate, garbage the collector lets pile up in the heap before collecting it. For the
    // same reason the text is joined from arrays (one string per row, one per batch), not grown
    // with `+=`, each of which is a string of its own (some 70 a row).
    const cells = new Array<string>(columns.length);
    const texts: string[] = [];
    for (let from = 0; from < rows.length; from += TEXT_ROWS) {
      const to = Math.min(rows.length, from + TEXT_ROWS);
      const lines = new Array<string>(to - from + 1);
      for (let r = from; r < to; r += 1) {
        const row = rows[r]!;
        const p = presentParticipant(row, staff.role) as unknown as Record<string, unknown>;
        const contact = contacts.get(row.participant_id);
        for (let i = 0; i < columns.length; i += 1) cells[i] = csvCell(cellOf(columns[i]!, p, contact));
        lines[r - from] = cells.join(',');
      }
      // The last line ends with a line break too.
      lines[to - from] = '';
      texts.push(lines.join('\r\n'));
    }
    return {
      count: rows.length,
      texts,
      next: rows.length < EXPORT_BATCH ? undefined : participantPositionOf(order, rows[rows.length - 1]!),
    };
  }

  async function* lines() {
    // A byte-order mark, so spreadsheet programs read names with accents as UTF-8.
    yield `\uFEFF${columns.join(',')}\r\n`;
    let cursor: ParticipantCursor | undefined;
    let sent = 0;
    for (;;) {
      const { count, texts, next } = await batch(cursor, sent);
      if (count === 0) return;
      yield* texts;
      sent += count;
      if (next === undefined) return;
      cursor = next;
    }
  }
  // One piece read ahead of the one being sent, no more (the next batch is read once the last piece
  // of this one is taken): a slow download holds the next batch back (Readable.from would otherwise
  // read up to 16 ahead).
  return { total, csv: Readable.from(inScope(lines()), { highWaterMark: 1 }) };
}

/** A column's value for one participant: the presented field, or what the export adds to it. */
function cellOf(
  column: string,
  p: Record<string, unknown>,
  contact: { created_at: Date; method: string; outcome: string } | undefined,
): unknown {
  switch (column) {
    case 'tracking': {
      const state = p.adherence_state as keyof typeof ADHERENCE_LABELS | null | undefined;
      return state ? ADHERENCE_LABELS[state] : NO_PROGRAMME_LABEL;
    }
    case 'last_contact_at':
      return contact?.created_at.toISOString();
    case 'last_contact_method':
      return contact?.method;
    case 'last_contact_outcome':
      return contact?.outcome;
    default:
      return p[column];
  }
}
