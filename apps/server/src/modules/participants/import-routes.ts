import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { api, limits, messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { routeOf } from '../../lib/endpoint-route.js';
import { HttpError, badRequest } from '../../lib/http-error.js';
import { AuditService } from '../audit/index.js';
import { importParticipants } from './import.js';
import { staffActor } from './routes.js';

const MAX_BYTES = limits.participantImportMaxBytes;
const tooLarge = () => new HttpError(413, messages.participantImport.tooLarge(MAX_BYTES / 1024 / 1024));
const notCsv = () => new HttpError(415, messages.participantImport.notCsv);

function isCsv(request: FastifyRequest): boolean {
  return request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'text/csv';
}

/**
 * Bulk referrals from CSV, in a plugin of their own: the text/csv body parser (and its
 * 5 MB limit, above the app's 1 MB) belongs to this route only.
 */
export async function participantImportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const audit = new AuditService(ctx.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  // The file as UTF-8 text, read here rather than by Fastify's string parser so that each refusal
  // says what is wrong with the file: too large, not text.
  app.addContentTypeParser('text/csv', (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (declared > MAX_BYTES) {
      done(tooLarge(), undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: Error | null, body?: string) => {
      if (finished) return;
      finished = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BYTES) {
        finish(tooLarge());
        payload.resume();
        return;
      }
      if (!finished) chunks.push(chunk);
    });
    payload.on('error', (error) => finish(error));
    payload.on('end', () => {
      if (finished) return;
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        finish(badRequest(messages.participantImport.notCsv));
        return;
      }
      // A NUL never appears in a text file; a spreadsheet's binary format (.xlsx, .xls) is full of them.
      finish(text.includes('\u0000') ? badRequest(messages.participantImport.notCsv) : null, text);
    });
  });

  r.route({
    ...routeOf(api.participants.import),
    bodyLimit: MAX_BYTES,
    // Before the body is read: any other content type is refused with the reason, not parsed.
    onRequest: async (request) => {
      if (!isCsv(request)) throw notCsv();
    },
    handler: async (request) => {
      const report = await importParticipants(
        ctx.db,
        audit,
        ctx.clock,
        request.body,
        request.query.dry_run,
        staffActor(request),
        request.query.site_id,
      );
      request.log.info(
        {
          by: request.staff!.adminUserId,
          rows: report.rows,
          errors: report.errors.length,
          imported: report.participant_ids.length,
          dry_run: report.dry_run,
        },
        'participant import',
      );
      return report;
    },
  });
}
