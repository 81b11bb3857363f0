import { describe, expect, it } from 'vitest';
import { parseLog, parseLogLine } from './logLines';

describe('parseLogLine', () => {
  it('reads the level, time and message of a JSON line and keeps the other fields as details', () => {
    const line = JSON.stringify({
      level: 40,
      time: '2025-06-01T09:15:02.042Z',
      service: 'pathway',
      reqId: 'req-7',
      res: { statusCode: 404 },
      msg: 'request completed',
    });
    const entry = parseLogLine(line);
    expect(entry.level).toBe('warn');
    expect(entry.message).toBe('request completed');
    expect(entry.time).toMatch(/^\d{2}:15:02\.042$/);
    expect(JSON.parse(entry.details!)).toEqual({ reqId: 'req-7', res: { statusCode: 404 } });
    expect(entry.raw).toBe(line);
  });

  it('keeps a line that is not a JSON object as it is', () => {
    expect(parseLogLine('plain text')).toEqual({ raw: 'plain text' });
    expect(parseLogLine('[1,2]')).toEqual({ raw: '[1,2]' });
  });

  it('skips blank lines of a file', () => {
    expect(parseLog('{"level":30,"msg":"a"}\n\n  \n{"level":50,"msg":"b"}\n').map((e) => e.message)).toEqual([
      'a',
      'b',
    ]);
  });
});
