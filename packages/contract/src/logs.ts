import { z } from 'zod';
import { messages } from './messages.js';

/** Daily log files are named pathway-YYYY-MM-DD.log; nothing else is ever served. */
export const LOG_FILE_PATTERN = /^pathway-\d{4}-\d{2}-\d{2}\.log$/;
export const logFileName = z.string().regex(LOG_FILE_PATTERN, { error: messages.logs.badName });
export const logList = z.array(z.string()).meta({ id: 'LogFileList' });

/**
 * `?view=true`: the console shows the file in its viewer rather than saving it. The audit trail
 * records a view and a download as different kinds; the bytes answered are the same.
 */
export const logReadQuery = z.object({
  view: z
    .enum(['true', 'false'], { error: 'view must be true or false' })
    .optional()
    .describe('true when the console shows the log in its viewer'),
});
