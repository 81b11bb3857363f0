import { z } from 'zod';

/** How long the server keeps what grows every day (set by the operator's environment). */
export const retentionPolicy = z
  .object({
    log_retention_days: z.number().int().positive(),
    audit_retention_days: z.number().int().positive(),
  })
  .meta({ id: 'RetentionPolicy' });
export type RetentionPolicy = z.infer<typeof retentionPolicy>;

/**
 * "90 days", "2,920 days (8 years)": the sentence the Server Logs and Audit trail screens (and the
 * device sign-ins, kept as long as the audit trail) show.
 */
export function describeRetention(days: number): string {
  const text = `${days.toLocaleString('en-GB')} ${days === 1 ? 'day' : 'days'}`;
  const years = days / 365;
  return Number.isInteger(years) && years >= 1
    ? `${text} (${years} ${years === 1 ? 'year' : 'years'})`
    : text;
}
