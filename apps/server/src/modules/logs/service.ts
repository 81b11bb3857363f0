import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { LOG_FILE_PATTERN, messages } from '@pathway/contract';
import { notFound } from '../../lib/http-error.js';
import type { AuditActor, AuditService } from '../audit/index.js';

/** Newest first. Only names of the daily pattern are ever listed, so only those can be served. */
export async function listLogFiles(logDir: string): Promise<string[]> {
  const names = await readdir(logDir).catch(() => [] as string[]);
  return names
    .filter((n) => LOG_FILE_PATTERN.test(n))
    .sort()
    .reverse();
}

/** The daily log files: listing them, and opening one for a reader (recorded in the audit trail). */
export class LogService {
  constructor(
    private readonly logDir: string,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<string[]> {
    return listLogFiles(this.logDir);
  }

  /**
   * Where the file is and how long it is now, once its reading is recorded: nobody reads a log
   * without its record. `viewing` is the console's viewer (a view), otherwise a download.
   */
  async open(fileName: string, viewing: boolean, actor: AuditActor): Promise<{ file: string; size: number }> {
    // The pattern already rules out separators; the listing check rules out anything else.
    if (!(await this.list()).includes(fileName)) throw notFound(messages.logs.notFound);
    const file = path.join(this.logDir, fileName);
    const { size } = await stat(file);
    await this.audit.record(actor, { action: viewing ? 'logs.view' : 'logs.download', detail: fileName });
    return { file, size };
  }
}
