import { z } from 'zod';

/** The one error shape of every 4xx and 5xx answer. */
export const errorResponse = z.object({ message: z.string() }).meta({ id: 'Error' });
export type ErrorResponse = z.infer<typeof errorResponse>;

export const okResponse = z.object({ message: z.string() });

/** Path ids: digits only, so `/api/x/1;drop` is a 400 and never reaches SQL. */
export const idParam = z.coerce
  .number({ error: 'The id must be a whole number' })
  .int({ error: 'The id must be a whole number' })
  .positive({ error: 'The id must be a whole number' })
  .max(2147483647, { error: 'The id is out of range' });

/** Trims and requires at least `min` characters, with the spec's two messages. */
export function requiredText(emptyMessage: string, min: number, shortMessage: string, max = 200) {
  return z
    .string({ error: emptyMessage })
    .trim()
    .min(1, { error: emptyMessage })
    .min(min, { error: shortMessage })
    .max(max, { error: `Must be at most ${max} characters` });
}
