import {
  REPORT_NAMES,
  REPORT_TITLES,
  SMALL_COUNT_LIMIT,
  SMALL_COUNT_TEXT,
  OUTCOMES_REPORT_TITLE,
  outcomesTable,
  reportTables,
  type ReportTable,
  type ReportsAnswers,
  type ReportName,
} from '@pathway/contract';
import { eq } from 'drizzle-orm';
import { sites } from '../../db/schema.js';
import { siteDetail } from '../../lib/site-filter.js';
import type { AuditActor, AuditService } from '../audit/index.js';
import { outcomesReportsOf } from './outcomes.js';
import { reportOf, type ReportContext, type ReportPeriod } from './service.js';

export interface WorkbookRequest {
  period: ReportPeriod;
  /** The one site the figures are of; absent: every site the admin sees. */
  siteId?: number;
  suppressSmall: boolean;
  madeAt: Date;
  madeBy: string;
}

/** Excel's limit on a sheet's name. */
const SHEET_NAME_MAX = 31;

/** Every report's tables over the period, a sheet each after a sheet saying what the workbook is. */
export async function reportWorkbookTables(
  c: ReportContext,
  request: WorkbookRequest,
): Promise<ReportTable[]> {
  // One after another: each is a large read at scale, and two at once would only share the CPU.
  const answers: ReportsAnswers[ReportName][] = [];
  for (const name of REPORT_NAMES) answers.push(await reportOf(c, name, request.period));
  const { period } = request;
  const outcomes = await outcomesReportsOf(c, { from: period.from, to: period.to });
  const [site] =
    request.siteId === undefined
      ? []
      : await c.db.select({ name: sites.name }).from(sites).where(eq(sites.site_id, request.siteId));
  const about: ReportTable = {
    key: 'about',
    title: 'About this workbook',
    columns: ['Item', 'Value'],
    rows: [
      ['Reports', [...REPORT_NAMES.map((n) => REPORT_TITLES[n]), OUTCOMES_REPORT_TITLE].join(', ')],
      ['From', period.from],
      ['To', period.to],
      ['Sites', site ? `${site.name} only` : 'Every site of the admin who made it'],
      ['Grouped by', period.by === 'week' ? 'ISO week (Monday to Sunday)' : 'month'],
      ['Time zone', c.timeZone],
      ['Made at', request.madeAt.toISOString()],
      ['Made by', request.madeBy],
      [
        'Small counts',
        request.suppressSmall
          ? `Counts from 1 to ${SMALL_COUNT_LIMIT - 1} are written as ${SMALL_COUNT_TEXT}; shares and statistics of such groups are left empty`
          : 'Not suppressed: for use within the team only',
      ],
    ],
  };
  return [
    about,
    ...answers.flatMap((a) => reportTables(a, request.suppressSmall)),
    outcomesTable(outcomes, request.suppressSmall),
  ];
}

/** The tables as an XLSX workbook (ExcelJS, loaded only when a workbook is asked for). */
export async function workbookOf(tables: ReportTable[], request: WorkbookRequest): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = request.madeBy;
  workbook.created = request.madeAt;
  workbook.modified = request.madeAt;
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.key.slice(0, SHEET_NAME_MAX));
    sheet.addRow([table.title]).font = { bold: true };
    sheet.addRow(table.columns).font = { bold: true };
    // ExcelJS writes a string beginning with = as text (a formula is an object), so no quote is needed.
    for (const row of table.rows) sheet.addRow(row);
    sheet.columns.forEach((column, i) => {
      const widest = Math.max(
        ...[table.columns[i] ?? '', ...table.rows.map((r) => r[i] ?? '')].map((v) => String(v).length),
      );
      column.width = Math.min(60, Math.max(10, widest + 2));
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Every report over the period as an XLSX workbook for `actor`; the export is audited before the file is made. */
export async function exportWorkbook(
  c: ReportContext,
  audit: AuditService,
  actor: AuditActor,
  request: WorkbookRequest,
): Promise<Buffer> {
  const tables = await reportWorkbookTables(c, request);
  const { from, to, by } = request.period;
  await audit.record(actor, {
    action: 'report.export',
    detail: `all reports ${from}..${to} by ${by}${siteDetail(request.siteId)}, xlsx${request.suppressSmall ? ', counts under 5 suppressed' : ''}`,
  });
  return workbookOf(tables, request);
}
