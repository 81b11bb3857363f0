import { z } from 'zod';
import { isIsoDate, todayIsoDate } from './common.js';
import { limits } from './limits.js';
import {
  DISCHARGE_OUTCOMES,
  PARTICIPANT_STATUS_FILTERS,
  PARTICIPANT_STATUSES,
  WITHDRAWAL_REASONS,
} from './life-cycle-names.js';

// Discharge and re-referral, records due for review and their destruction, the subject access
// download, and the step-up of dangerous actions. The texts the user reads are in messages.ts
// (lifeCycle, records, stepUp).

export const participantStatusFilter = z
  .enum(PARTICIPANT_STATUS_FILTERS, {
    error: `status must be one of ${PARTICIPANT_STATUS_FILTERS.join(', ')}`,
  })
  .default('active')
  .describe('active (the default), completed, withdrawn, or all');

export const dischargeMessages = {
  outcomeInvalid: 'Outcome must be completed or withdrawn',
  reasonRequired: 'Please choose why the participant withdrew',
  reasonInvalid: `Reason must be one of ${WITHDRAWAL_REASONS.join(', ')}`,
  reasonOnlyWithdrawn: 'A reason is given only when the participant withdrew',
  dateInvalid: 'The discharge date must be a valid date, not in the future',
} as const;

/** `POST /api/participant/{id}/discharge`. */
export const dischargeBody = z
  .object({
    outcome: z.enum(DISCHARGE_OUTCOMES, { error: dischargeMessages.outcomeInvalid }),
    reason: z.enum(WITHDRAWAL_REASONS, { error: dischargeMessages.reasonInvalid }).nullish(),
    note: z
      .string({ error: 'Must be text' })
      .trim()
      .max(limits.longTextMax, { error: `Must be at most ${limits.longTextMax} characters` })
      .nullish()
      .transform((v) => (v ? v : null)),
    discharged_on: z
      .string({ error: dischargeMessages.dateInvalid })
      .refine(isIsoDate, { error: dischargeMessages.dateInvalid })
      .optional()
      .describe('YYYY-MM-DD; today when left out. Not in the future.'),
  })
  .superRefine((body, ctx) => {
    if (body.outcome === 'withdrawn' && !body.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: dischargeMessages.reasonRequired });
    }
    if (body.outcome === 'completed' && body.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: dischargeMessages.reasonOnlyWithdrawn });
    }
    if (body.discharged_on && isIsoDate(body.discharged_on) && body.discharged_on > todayIsoDate()) {
      ctx.addIssue({ code: 'custom', path: ['discharged_on'], message: dischargeMessages.dateInvalid });
    }
  })
  .meta({ id: 'Discharge' });
export type DischargeBody = z.input<typeof dischargeBody>;
export type DischargeInput = z.output<typeof dischargeBody>;

/** A record past its retention period, as the Records due for review screen lists it (full access). */
export const recordDue = z
  .object({
    participant_id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    date_of_birth: z.string(),
    status: z.enum(PARTICIPANT_STATUSES),
    discharged_on: z.string().describe('YYYY-MM-DD'),
    review_due_on: z.string().describe('YYYY-MM-DD: discharged_on plus the retention period'),
  })
  .meta({ id: 'RecordDue' });
export type RecordDue = z.infer<typeof recordDue>;

export const recordsDue = z
  .object({
    retention_years: z.number().int().positive().describe('PARTICIPANT_RETENTION_YEARS'),
    data: z.array(recordDue),
  })
  .meta({ id: 'RecordsDue' });
export type RecordsDue = z.infer<typeof recordsDue>;

export const destroyRecordsBody = z
  .object({
    participant_ids: z
      .array(
        z.number({ error: 'Each participant id must be a whole number' }).int().positive().max(2147483647),
        {
          error: 'participant_ids must be a list of participant ids',
        },
      )
      .min(1, { error: 'Please select at least one record' })
      .max(500, { error: 'At most 500 records can be destroyed at once' }),
  })
  .meta({ id: 'DestroyRecords' });
export type DestroyRecordsBody = z.input<typeof destroyRecordsBody>;

export const recordsDestroyed = z.object({
  message: z.string(),
  destroyed: z.array(z.number().int()),
});

/** `POST /api/session/step-up`: the password and a fresh authenticator code, as at sign-in. */
export const stepUpBody = z
  .object({
    password: z
      .string({ error: 'Password cannot be empty' })
      .min(1, { error: 'Password cannot be empty' })
      .max(1000),
    mfa_token: z
      .string({ error: 'MFA code cannot be empty' })
      .trim()
      .min(1, { error: 'MFA code cannot be empty' })
      .max(20),
  })
  .meta({ id: 'StepUp' });
export type StepUpBody = z.input<typeof stepUpBody>;

/** The name of the ZIP of everything held about one participant. */
export function subjectAccessFileName(participantId: number, today: string): string {
  return `pathway-participant-${participantId}-record-${today}.zip`;
}
