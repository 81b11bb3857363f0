import { sql } from 'drizzle-orm';
import { strToU8, zipSync, type Zippable } from 'fflate';
import {
  AUDIT_ACTIONS,
  PARTICIPANT_STATUS_LABELS,
  WITHDRAWAL_REASON_LABELS,
  messages,
  type AuditAction,
  type ParticipantStatus,
  type WithdrawalReason,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { column, recordRows, rowsReader } from '../../db/rows.js';
import { notFound } from '../../lib/http-error.js';
import { type AuditActor, AuditService } from '../audit/index.js';
import { quoted, tablesAboutParticipants } from './records.js';

/**
 * Everything held about one participant (UK GDPR right of access): one ZIP
 * with a readable HTML summary and, for every table that holds rows about them (found in the
 * catalogue by its participant_id column, so a table added later is included without a change
 * here), a JSON file of those rows with every column. Left out, and said so in the README of the
 * ZIP: the hashes of the tablet's bearer tokens (a secret of the server, not data about the
 * person), and, in audit records of list reads, the ids of the other participants the read
 * returned (someone else's data).
 */

type Row = Record<string, unknown>;

const readVideoTitles = rowsReader({
  video_id: column.integer,
  title: column.text,
  week_number: column.integer,
  day_number: column.integer,
});
const readSetNames = rowsReader({ fitness_video_set_id: column.integer, name: column.text });
const readMeasureName = rowsReader({ measure_id: column.integer, name: column.text, unit: column.text });

/** Columns never handed out: derived secrets of the server. */
const WITHHELD_COLUMNS: Record<string, readonly string[]> = { device_tokens: ['token_hash'] };

export interface SubjectAccessFiles {
  tables: Record<string, Row[]>;
  summary: string;
}

function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${value}`;
  return JSON.stringify(value);
}

function escapeHtml(value: unknown): string {
  return textOf(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function table(caption: string, columns: string[], rows: Row[]): string {
  if (rows.length === 0) return `<h2>${escapeHtml(caption)}</h2>\n<p>None.</p>\n`;
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${columns.map((c) => `<td>${escapeHtml(row[c])}</td>`).join('')}</tr>`)
    .join('\n');
  return `<h2>${escapeHtml(caption)}</h2>\n<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>\n`;
}

function fields(caption: string, row: Row): string {
  const body = Object.entries(row)
    .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
    .join('\n');
  return `<h2>${escapeHtml(caption)}</h2>\n<table>\n<tbody>\n${body}\n</tbody>\n</table>\n`;
}

export class SubjectAccessService {
  private readonly audit: AuditService;

  constructor(private readonly ctx: AppContext) {
    this.audit = new AuditService(ctx.db);
  }

  /** Every table's rows about the participant, by table name; null when there is no such participant. */
  async collect(participantId: number): Promise<Record<string, Row[]> | null> {
    const db = this.ctx.db;
    const result: Record<string, Row[]> = {};
    for (const name of await tablesAboutParticipants(db)) {
      const rows = recordRows(
        await db.execute(
          name === 'audit_events'
            ? sql`select * from audit_events where participant_id = ${participantId} or ${participantId} = any(participant_ids) order by audit_event_id`
            : sql`select * from ${quoted(name)} where participant_id = ${participantId}`,
        ),
      );
      const withheld = WITHHELD_COLUMNS[name] ?? [];
      result[name] = rows.map((row) => {
        const copy: Row = { ...row };
        for (const column of withheld) delete copy[column];
        if (name === 'audit_events' && Array.isArray(copy.participant_ids)) {
          // Only this participant: the other ids of a list read are other people's data.
          copy.participant_ids = (copy.participant_ids as number[]).filter((id) => id === participantId);
        }
        return copy;
      });
    }
    if ((result.participants ?? []).length === 0) return null;
    return result;
  }

  /** The ZIP's bytes; the download is audited before anything is handed out. */
  async download(participantId: number, actor: AuditActor): Promise<Uint8Array> {
    const tables = await this.collect(participantId);
    if (!tables) throw notFound(messages.participant.notFound);
    await this.audit.record(actor, {
      action: 'participant.record_download',
      participantId,
      detail: `subject access: ${Object.keys(tables).join(', ')}`,
    });
    const now = this.ctx.clock.now();
    const files: Zippable = {
      'summary.html': strToU8(await this.summary(participantId, tables, now)),
      'README.txt': strToU8(readme(participantId, now, Object.keys(tables))),
    };
    for (const [name, rows] of Object.entries(tables)) {
      files[`data/${name}.json`] = strToU8(`${JSON.stringify(rows, null, 2)}\n`);
    }
    return zipSync(files, { level: 6, mtime: now });
  }

  private async summary(participantId: number, tables: Record<string, Row[]>, now: Date): Promise<string> {
    const participant = tables.participants![0]!;
    const status = participant.status as ParticipantStatus;
    const reason = participant.discharge_reason as WithdrawalReason | null;
    // Titles of the videos seen, and the programme's set name: readable, not only ids.
    const titles = new Map(
      readVideoTitles(
        await this.ctx.db.execute(sql`
          select v.video_id, v.title, v.week_number, v.day_number from videos v
          where v.video_id in (select video_id from seen_videos where participant_id = ${participantId})`),
      ).map((v) => [v.video_id, v]),
    );
    const sets = new Map(
      readSetNames(
        await this.ctx.db.execute(sql`
          select s.fitness_video_set_id, s.set_name as name from fitness_video_sets s
          where s.fitness_video_set_id in (select fitness_video_set_id from fitness_participation_progress where participant_id = ${participantId})`),
      ).map((s) => [s.fitness_video_set_id, s.name]),
    );
    const views = (tables.seen_videos ?? []).map((v) => {
      const video = titles.get(Number(v.video_id));
      return {
        ...v,
        title: video?.title ?? '',
        position: video ? `week ${video.week_number}, day ${video.day_number}` : '',
      };
    });
    const programme = (tables.fitness_participation_progress ?? []).map((p) => ({
      ...p,
      video_set: sets.get(Number(p.fitness_video_set_id)) ?? '',
    }));
    // Outcome results and every amendment of one, with the measure's name and unit.
    const measures = new Map(
      readMeasureName(
        await this.ctx.db.execute(sql`
          select m.measure_id, m.name, m.unit from outcome_measures m
          where m.measure_id in (select measure_id from assessment_results where participant_id = ${participantId})`),
      ).map((m) => [m.measure_id, m]),
    );
    const outcomes = (tables.assessment_results ?? []).map((r) => {
      const measure = measures.get(Number(r.measure_id));
      return {
        ...r,
        measure: measure?.name ?? '',
        unit: measure?.unit ?? '',
        answers: r.answers === null ? '' : JSON.stringify(r.answers),
        correction:
          r.amends === null
            ? ''
            : r.entered_in_error
              ? `entered in error (amends ${textOf(r.amends)})`
              : `amends ${textOf(r.amends)}`,
      };
    });
    const audit = (tables.audit_events ?? []).map((a) => ({
      ...a,
      what: AUDIT_ACTIONS[a.action as AuditAction] ?? a.action,
    }));
    const sections = [
      `<p>Everything Pathway holds about participant ${participantId}, as of ${escapeHtml(now.toISOString())}. Status: ${escapeHtml(PARTICIPANT_STATUS_LABELS[status] ?? status)}${participant.discharged_on ? `, discharged on ${escapeHtml(participant.discharged_on)}` : ''}${reason ? ` (${escapeHtml(WITHDRAWAL_REASON_LABELS[reason] ?? reason)})` : ''}. The folder <code>data</code> holds every field of every row as JSON, one file per table.</p>`,
      fields('Details and referral', participant),
      table(
        'Programme',
        ['video_set', 'started_date', 'current_week', 'current_day', 'percentage_progress', 'updated_at'],
        programme,
      ),
      table('Video views', ['created_at', 'title', 'position', 'video_id'], views),
      table(
        'Push messages',
        ['created_at', 'title', 'body', 'kind', 'status', 'sent_at'],
        tables.push_outbox ?? [],
      ),
      table(
        'Contact log',
        ['created_at', 'method', 'outcome', 'note', 'next_followup_on', 'admin_user_name'],
        tables.participant_contacts ?? [],
      ),
      table(
        'Outcome results and their amendments',
        [
          'assessment_id',
          'taken_on',
          'measure',
          'timepoint',
          'week',
          'score',
          'unit',
          'answers',
          'correction',
          'reason',
          'note',
          'admin_user_name',
          'created_at',
        ],
        outcomes,
      ),
      table(
        'Tablets (device assignments)',
        ['device_name', 'device_uuid', 'assigned_at', 'unassigned_at'],
        tables.device_assignments ?? [],
      ),
      table(
        'Tablet sign-ins',
        ['created_at', 'kind', 'device_uuid', 'ip_address', 'flagged'],
        tables.device_sign_ins ?? [],
      ),
      table(
        'Who viewed or changed the record (audit trail)',
        ['created_at', 'admin_user_name', 'what', 'detail'],
        audit,
      ),
    ];
    return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Pathway: everything held about participant ${participantId}</title>
<style>
body { font-family: Arial, sans-serif; margin: 2rem; color: #212b32; }
table { border-collapse: collapse; margin-bottom: 1.5rem; }
th, td { border: 1px solid #d8dde0; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f0f4f5; }
</style>
</head>
<body>
<main>
<h1>Everything held about participant ${participantId}</h1>
${sections.join('\n')}
</main>
</body>
</html>
`;
  }
}

function readme(participantId: number, now: Date, tables: string[]): string {
  return [
    `Pathway subject access: participant ${participantId}, made ${now.toISOString()}.`,
    '',
    'summary.html: a readable summary.',
    'data/<table>.json: every row of every table that holds rows about this participant, every field:',
    ...tables.map((t) => `  - ${t}`),
    '',
    'Left out: the hashes of the tablet sign-in tokens (a server secret, not data about the person),',
    "and in audit records of list reads the ids of the other participants the read returned (other people's data).",
    '',
  ].join('\n');
}
