import { PARTICIPANT_IMPORT_COLUMNS, isValidNhsNumber } from '@pathway/contract';
import type { ApiEnvironment } from './lib/api-env.js';
import { count, median, ms } from './lib/stats.js';

/** Rows of one bulk-referral file (issue 32's figure: 1,000 rows checked and imported in under 5 s). */
const IMPORT_ROWS = 1000;

let nextNine = 300_000_000;

/** The next valid NHS number of the run (nine digits counted up, the modulus 11 check digit). */
function nhsNumber(): string {
  for (;;) {
    nextNine += 1;
    for (let check = 0; check <= 9; check++) {
      const candidate = `${nextNine}${check}`;
      if (isValidNhsNumber(candidate)) return candidate;
    }
  }
}

/** A file as staff would fill the template in: every column, cells quoted where they need it. */
function referralFile(run: number): string {
  const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  const lines = [PARTICIPANT_IMPORT_COLUMNS.join(',')];
  for (let i = 0; i < IMPORT_ROWS; i++) {
    const cells: Record<(typeof PARTICIPANT_IMPORT_COLUMNS)[number], string> = {
      first_name: `Bench${run}`,
      last_name: `Referral${i}`,
      gender: i % 2 ? 'male' : 'female',
      date_of_birth: `19${50 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`,
      nhs_number: nhsNumber(),
      email: `bench${run}.${i}@example.org`,
      phone_number: '+447700900123',
      phone_number_secondary: '',
      address: `${i} Bench Road, Leeds`,
      language: 'English',
      notes: '',
      programme_referred_to: 'pad-programme',
      referring_organisation: 'Leeds Community Practice',
      referring_healthcare_professional: 'Dr Bench',
      referring_healthcare_professional_role: 'GP',
      checked_contraindications_to_exercise: 'true',
      smoker: 'false',
      diabetes: 'false',
      registered_deaf: 'false',
    };
    lines.push(PARTICIPANT_IMPORT_COLUMNS.map((c) => quoted(cells[c])).join(','));
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

async function post(url: string, cookie: string, body: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'text/csv' },
    body,
  });
  const report = (await response.json()) as {
    errors?: unknown[];
    participant_ids?: number[];
    message?: string;
  };
  if (!response.ok || report.errors?.length)
    throw new Error(`${url}: ${response.status} ${JSON.stringify(report).slice(0, 300)}`);
  return performance.now() - started;
}

/**
 * Bulk referrals (POST /api/participant/import) of a 1,000-row file into the largest participant
 * list: the check alone (dry run) and the import, which checks the file again and adds every row
 * in one transaction with its audit record. Each run sends a new file (new names and NHS numbers).
 */
export async function measureImport(env: ApiEnvironment, participants: number): Promise<void> {
  await env.withServer(async (server) => {
    const checks: number[] = [];
    const imports: number[] = [];
    let bytes = 0;
    for (let run = 0; run < Math.max(1, Math.min(3, env.sizes.rounds)); run += 1) {
      const file = referralFile(run);
      bytes = Buffer.byteLength(file);
      checks.push(await post(`${server.url}/api/participant/import?dry_run=true`, env.cookie, file));
      imports.push(await post(`${server.url}/api/participant/import?dry_run=false`, env.cookie, file));
    }
    const conditions = `${count(participants)} participants registered; ${count(IMPORT_ROWS)} rows (${(bytes / 1024).toFixed(0)} KB), every column, unique NHS numbers; full access; median of ${imports.length} runs, each a new file`;
    env.add({
      figure: `POST /api/participant/import, ${count(IMPORT_ROWS)} rows: checked and imported (dry_run=false)`,
      value: ms(median(imports)),
      goal: '< 5 s',
      met: median(imports) < 5000,
      conditions: `${conditions}; one transaction, one audit record`,
    });
    env.add({
      figure: `POST /api/participant/import, ${count(IMPORT_ROWS)} rows: checked only (dry_run=true, the preview)`,
      value: ms(median(checks)),
      goal: '',
      met: null,
      conditions,
    });
  });
}
