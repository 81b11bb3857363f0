import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LOG_FILE_PATTERN,
  errorResponse,
  logFileName,
  logList,
  logReadQuery,
  messages,
} from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/http-error.js';
import { AuditService, actorOf } from '../audit/service.js';

/** Newest first. Only names of the daily pattern are ever listed, so only those can be served. */
export async function listLogFiles(logDir: string): Promise<string[]> {
  const names = await readdir(logDir).catch(() => [] as string[]);
  return names
    .filter((n) => LOG_FILE_PATTERN.test(n))
    .sort()
    .reverse();
}

export async function logRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const audit = new AuditService(ctx.db);
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

  r.get(
    '/api/logs/getloglist',
    {
      config: { access: 'staff', permission: 'logs.read' },
      schema: {
        tags: ['server logs'],
        summary: 'Names of the daily log files, newest first',
        response: { 200: logList, ...errors },
      },
    },
    async () => listLogFiles(ctx.config.logDir),
  );

  r.get(
    '/api/logs/download/:fileName',
    {
      config: { access: 'staff', permission: 'logs.read' },
      schema: {
        tags: ['server logs'],
        summary:
          'The content of one log file (JSON lines); ?view=true when shown in the viewer (audited as a view)',
        params: z.object({ fileName: logFileName }),
        querystring: logReadQuery,
        produces: ['text/plain'],
        response: errors,
      },
    },
    async (request, reply) => {
      const { fileName } = request.params;
      // The pattern already rules out separators; the listing check rules out anything else.
      if (!(await listLogFiles(ctx.config.logDir)).includes(fileName)) throw notFound(messages.logs.notFound);
      const file = path.join(ctx.config.logDir, fileName);
      const { size } = await stat(file);
      const viewing = request.query.view === 'true';
      // Recorded before the first byte is sent: nobody reads a log without its record.
      await audit.record(actorOf(request), {
        action: viewing ? 'logs.view' : 'logs.download',
        detail: fileName,
      });
      return (
        reply
          .type('text/plain; charset=utf-8')
          .header('content-length', size)
          .header('content-disposition', `${viewing ? 'inline' : 'attachment'}; filename="${fileName}"`)
          // A stream is sent as is; the typed reply only knows the JSON error shapes.
          .send(createReadStream(file, { end: Math.max(0, size - 1) }) as never)
      );
    },
  );
}
