import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { IDENTIFIABLE_FIELDS } from '@pathway/contract';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

/**
 * Fields that must never reach a log line: credentials and tokens, then every identifiable
 * participant field of the contract's list (IDENTIFIABLE_FIELDS), wherever it sits one level down
 * (`body.notes`, `participant.smoker`). Request bodies are never logged at all; these paths catch
 * what code might pass. A field added to the contract's list is redacted without a change here.
 */
export function redactionPaths(identifiableFields: readonly string[] = IDENTIFIABLE_FIELDS): string[] {
  return [
    'req.headers.authorization',
    'req.headers.cookie',
    'res.headers["set-cookie"]',
    'password',
    'mfa_token',
    'totp_secret',
    'auth_token',
    'token',
    'jwt',
    '*.password',
    '*.mfa_token',
    '*.totp_secret',
    '*.auth_token',
    '*.token',
    ...identifiableFields.map((field) => `*.${field}`),
  ];
}

export const REDACTED_PATHS = redactionPaths();

/**
 * A device id in a path (the tablet's calls 1 and 2, the console's lookup by uuid) is replaced:
 * with a logged id anyone who can read logs could sign in as that tablet.
 */
export function withoutDeviceIds(pathname: string): string {
  return pathname
    .replace(/^\/uuid\/[^/]*/i, '/uuid/[device id]')
    .replace(/^(\/api\/authorizeddevices\/)(?!available\/?$|id\/)[^/]+/i, '$1[device id]');
}

/**
 * A request as logged: the path and the names of its query parameters, never their values (a
 * search or a paging cursor can hold a participant's name).
 */
export function serializeRequest(request: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string };
}) {
  const [rawPath, query] = (request.url ?? '').split('?', 2);
  const pathname = withoutDeviceIds(rawPath ?? '');
  const names = query ? [...new URLSearchParams(query).keys()] : [];
  return {
    method: request.method,
    url:
      names.length > 0
        ? `${pathname}?${[...new Set(names)].map((n) => `${n}=[redacted]`).join('&')}`
        : pathname,
    host: request.host,
    remoteAddress: request.ip ?? request.socket?.remoteAddress,
  };
}

/** Text of a database message without the values it quotes (`invalid input syntax ...: "Ada"`). */
function withoutQuotedValues(text: string): string {
  return text
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\((?:[^()]|\([^()]*\))*\)=\((?:[^()]|\([^()]*\))*\)/g, '(…)=(…)');
}

/**
 * An error as logged. A failed query's error carries its parameters (the values of a participant
 * being saved) in its message, and PostgreSQL's `detail` repeats the values of a conflicting row:
 * only the SQL text, the codes and messages stripped of quoted values are kept.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> | undefined {
  if (!(error instanceof Error) || depth > 3) return undefined;
  const e = error as Error & { code?: unknown; query?: unknown; statusCode?: unknown; cause?: unknown };
  const failedQuery = typeof e.query === 'string';
  const message = failedQuery ? 'Failed query' : withoutQuotedValues(e.message);
  return {
    type: e.name,
    message,
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    ...(failedQuery ? { query: e.query } : {}),
    // The stack frames only: the lines before them repeat the message (a failed query's, with its parameters).
    stack: e.stack?.includes('\n    at ') ? e.stack.slice(e.stack.indexOf('\n    at ') + 1) : undefined,
    ...(e.cause ? { cause: serializeError(e.cause, depth + 1) } : {}),
  };
}

export function logFileNameFor(date: Date): string {
  return `pathway-${date.toISOString().slice(0, 10)}.log`;
}

/** Lines are gathered up to this many characters before a write... */
const BATCH_CHARS = 8 * 1024;
/** ...and written at the latest this long after the first of them. */
const FLUSH_AFTER_MS = 100;

/**
 * An asynchronous destination that writes lines in batches: one write(2) for many lines instead
 * of one per line (two per request, plus the tablet's), and never a synchronous write on the
 * request's path (process.stdout to a pipe writes synchronously). A line waits at most
 * FLUSH_AFTER_MS; what is left is written when the process exits.
 */
class BatchedDestination implements DestinationStream {
  private readonly destination: ReturnType<typeof pino.destination>;
  private batch = '';
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly onExit = () => this.flushSync();

  constructor(fd: number) {
    // sonic-boom writes asynchronously and keeps what arrives while a write is under way.
    this.destination = pino.destination({ dest: fd, sync: false });
    // A log that cannot be written must never take the server down.
    this.destination.on('error', () => {});
    process.on('exit', this.onExit);
  }

  write(line: string): void {
    this.batch += line;
    if (this.batch.length >= BATCH_CHARS) this.writeBatch();
    else this.flushTimer ??= setTimeout(() => this.writeBatch(), FLUSH_AFTER_MS).unref();
  }

  private writeBatch(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.batch) return;
    const batch = this.batch;
    this.batch = '';
    this.destination.write(batch);
  }

  end(): void {
    this.writeBatch();
    this.destination.end();
    process.off('exit', this.onExit);
  }

  flushSync(): void {
    this.writeBatch();
    try {
      this.destination.flushSync();
    } catch {
      // Not open yet, or already closed: nothing of ours is waiting in it.
    }
  }
}

/** Appends to DATA_DIR/logs/pathway-YYYY-MM-DD.log, opening the next file when the day turns. */
class DailyFileStream implements DestinationStream {
  private currentName = '';
  private destination?: BatchedDestination;

  constructor(private readonly directory: string) {
    // Private whatever the umask (lib/data-dir-modes.ts): log lines hold addresses and user names.
    mkdirSync(directory, { recursive: true, mode: 0o700 });
  }

  write(line: string): void {
    const name = logFileNameFor(new Date());
    if (name !== this.currentName) {
      this.destination?.end();
      // Opened here, synchronously, so the day's file exists as soon as its first line is logged;
      // the writes themselves stay asynchronous.
      // Private like the rest of DATA_DIR whatever the umask; written in batches (BatchedDestination).
      this.destination = new BatchedDestination(openSync(path.join(this.directory, name), 'a', 0o600));
      this.currentName = name;
    }
    this.destination!.write(line);
  }

  flushSync(): void {
    this.destination?.flushSync();
  }

  /** Writes out what waits and closes the day's file (a later line would open it again). */
  end(): void {
    this.destination?.end();
    this.destination = undefined;
    this.currentName = '';
  }
}

export interface LoggerOptions {
  level: string;
  logDir?: string;
  toStdout: boolean;
  /** stdout's lines: JSON (the default), or pretty for a person at a terminal. */
  stdoutFormat?: 'pretty' | 'json';
  /** The fields to redact besides credentials: the contract's IDENTIFIABLE_FIELDS unless a test plants others. */
  identifiableFields?: readonly string[];
}

/**
 * Readable lines for a person at a terminal: time, level and message, then the fields, with the
 * same redaction as the JSON (pino redacts before any stream sees a line). Written synchronously:
 * a terminal's reader is the bottleneck here, not the server, and nothing is lost at exit.
 */
function prettyStdout(): DestinationStream {
  return pinoPretty({
    destination: 1,
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service',
    singleLine: true,
  });
}

export function createLogger(options: LoggerOptions): Logger {
  const streams: pino.StreamEntry[] = [];
  if (options.logDir)
    streams.push({ level: options.level as pino.Level, stream: new DailyFileStream(options.logDir) });
  if (options.toStdout)
    streams.push({
      level: options.level as pino.Level,
      stream: options.stdoutFormat === 'pretty' ? prettyStdout() : new BatchedDestination(1),
    });
  return pino(
    {
      level: options.level,
      redact: {
        paths: options.identifiableFields ? redactionPaths(options.identifiableFields) : REDACTED_PATHS,
        censor: '[redacted]',
      },
      base: { service: 'pathway' },
      serializers: { req: serializeRequest, err: (error: unknown) => serializeError(error) ?? error },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    // One destination is written directly; multistream's loop is for two.
    streams.length === 1 ? streams[0]!.stream : pino.multistream(streams),
  );
}

type LoggerStream = { flushSync?: () => void; end?: () => void } | undefined;

function streamOf(logger: Logger): LoggerStream {
  return (logger as unknown as Record<symbol, LoggerStream>)[pino.symbols.streamSym];
}

/**
 * Writes out the lines the batched destinations still hold (at exit pino does this itself): after
 * this, every line logged so far is in the log files.
 */
export function flushLogs(logger: Logger): void {
  streamOf(logger)?.flushSync?.();
}

/**
 * Writes out and closes the logger's files, and drops its exit hooks. The server keeps its logger
 * until it exits; a test process runs many apps one after another, and closes each one's logger
 * with it.
 */
export function closeLogs(logger: Logger): void {
  streamOf(logger)?.end?.();
}
