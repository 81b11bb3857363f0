import { z } from 'zod';

/** Daily log files are named pathway-YYYY-MM-DD.log; nothing else is ever served. */
export const LOG_FILE_PATTERN = /^pathway-\d{4}-\d{2}-\d{2}\.log$/;
export const logFileName = z.string().regex(LOG_FILE_PATTERN, { error: 'Invalid log file name' });
export const logList = z.array(z.string()).meta({ id: 'LogFileList' });
