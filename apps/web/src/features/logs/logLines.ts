/** One entry of a log file: the server writes JSON lines (pino); anything else is kept as text. */
export interface LogEntry {
  raw: string;
  time?: string;
  level?: LogLevel;
  message?: string;
  /** The entry's other fields, as compact JSON. */
  details?: string;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

const LEVELS: Record<number, LogLevel> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const SHOWN_APART = new Set(['level', 'time', 'msg', 'service', 'hostname', 'pid']);

function timeOf(value: unknown): string | undefined {
  const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return undefined;
  return (
    date.toLocaleTimeString('en-GB', { hour12: false }) +
    `.${String(date.getMilliseconds()).padStart(3, '0')}`
  );
}

export function parseLogLine(raw: string): LogEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { raw };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { raw };
  const fields = parsed as Record<string, unknown>;
  const rest = Object.fromEntries(Object.entries(fields).filter(([key]) => !SHOWN_APART.has(key)));
  return {
    raw,
    time: timeOf(fields.time),
    level: typeof fields.level === 'number' ? LEVELS[fields.level] : undefined,
    message: typeof fields.msg === 'string' ? fields.msg : undefined,
    details: Object.keys(rest).length > 0 ? JSON.stringify(rest) : undefined,
  };
}

export function parseLog(content: string): LogEntry[] {
  return content
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map(parseLogLine);
}
