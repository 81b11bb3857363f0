import { z } from 'zod';

/** The one error shape of every 4xx and 5xx answer. */
export const errorResponse = z
  .object({
    message: z.string(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('On a validation failure: every failing field with its message'),
    step_up_required: z
      .literal(true)
      .optional()
      .describe(
        'On a 401 of a dangerous action: the session must confirm password and authenticator code (POST /api/session/step-up), then retry',
      ),
  })
  .meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const okResponse = z.object({ message: z.string() });

/** Path ids: digits only, so `/api/x/1;drop` is a 400 and never reaches SQL. */
export const idParam = z.coerce
  .number({ error: 'The id must be a whole number' })
  .int({ error: 'The id must be a whole number' })
  .positive({ error: 'The id must be a whole number' })
  .max(2147483647, { error: 'The id is out of range' });

/** Trims and requires at least `min` characters, with the spec's two messages (one per field). */
export function requiredText(emptyMessage: string, min: number, shortMessage: string, max = 200) {
  return z
    .string({ error: emptyMessage })
    .trim()
    .min(1, { error: emptyMessage, abort: true })
    .min(min, { error: shortMessage, abort: true })
    .max(max, { error: `Must be at most ${max} characters`, abort: true });
}

/** `?page=&perPage=` of a paged list: page from 1, perPage bounded so nobody can ask for everything. */
export function pageQuery(defaultPerPage: number, maxPerPage: number) {
  return {
    page: z.coerce
      .number({ error: 'page must be a whole number from 1' })
      .int({ error: 'page must be a whole number from 1' })
      .min(1, { error: 'page must be a whole number from 1' })
      .max(10_000_000, { error: 'page is out of range' })
      .default(1),
    perPage: z.coerce
      .number({ error: `perPage must be a whole number from 1 to ${maxPerPage}` })
      .int({ error: `perPage must be a whole number from 1 to ${maxPerPage}` })
      .min(1, { error: `perPage must be a whole number from 1 to ${maxPerPage}` })
      .max(maxPerPage, { error: `perPage must be a whole number from 1 to ${maxPerPage}` })
      .default(defaultPerPage),
  };
}

/** Where a page sits in the whole list; `nextCursor` (when given) reaches the next page by keyset. */
export const pagination = z
  .object({
    total: z.number().int(),
    lastPage: z.number().int(),
    perPage: z.number().int(),
    currentPage: z.number().int(),
    from: z.number().int().describe('1-based position of the first row of this page (0 when empty)'),
    to: z.number().int().describe('1-based position of the last row of this page (0 when empty)'),
    nextCursor: z
      .string()
      .nullable()
      .describe(
        'Pass as `after` (with the same filters and sort) to fetch the next page by keyset; null on the last page',
      ),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof pagination>;

/** Accepts JSON booleans and the strings a form-encoded body carries. */
export function formBoolean(message: string) {
  return z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' ? false : v),
    z.boolean({ error: message }),
  );
}

/** Today's calendar date where the code runs (browser or server), as YYYY-MM-DD. */
export function todayIsoDate(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** A real calendar date written YYYY-MM-DD (2023-02-30 is not). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
