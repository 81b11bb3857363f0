import { z } from 'zod';
import { isIsoDate, pageQuery, pagination } from './common.js';
import { CONTACT_METHODS, CONTACT_OUTCOMES, FOLLOWUP_REASONS } from './life-cycle-names.js';
import { messages } from './messages.js';
import { siteFilter } from './organisations.js';

const m = messages.followup;

/** Longest contact note (identifiable free text). */
export const CONTACT_NOTE_MAX = 2000;
/** A participant registered this many days ago without a device or a programme is "not started". */
export const FOLLOWUP_NOT_STARTED_DAYS = 2;

export const FOLLOWUP_REASON_LABELS: Record<(typeof FOLLOWUP_REASONS)[number], string> = {
  behind: 'Behind',
  tablet_silent: 'Tablet silent',
  reminders_failing: 'Reminders failing',
  slightly_behind: 'Slightly behind',
  programme_finished: 'Programme finished',
  not_started: 'Not started',
  assessment_due: 'Assessment due',
};

export const CONTACT_METHOD_LABELS: Record<(typeof CONTACT_METHODS)[number], string> = {
  phone: 'Phone',
  text: 'Text message',
  email: 'Email',
  in_person: 'In person',
  letter: 'Letter',
};

export const CONTACT_OUTCOME_LABELS: Record<(typeof CONTACT_OUTCOMES)[number], string> = {
  reached: 'Reached',
  no_answer: 'No answer',
  left_message: 'Left a message',
  wrong_number: 'Wrong number',
  declined: 'Declined to continue',
};

export const followupReason = z.enum(FOLLOWUP_REASONS, { error: m.reasonInvalid });
const contactMethod = z.enum(CONTACT_METHODS, { error: m.methodInvalid });
const contactOutcome = z.enum(CONTACT_OUTCOMES, { error: m.outcomeInvalid });

export const followupListQuery = z.object({
  ...pageQuery(25, 500),
  reason: followupReason.optional().describe('Only participants to whom this reason applies'),
  after: z
    .string()
    .max(400, { error: m.cursorInvalid })
    .optional()
    .describe('nextCursor of the previous page: fetches the next page by keyset instead of by offset'),
  ...siteFilter,
});
export type FollowupListQuery = z.output<typeof followupListQuery>;

/** A worklist row as every admin sees it: no identifiable field. */
export const followupEntryBasic = z
  .object({
    participant_id: z.number().int(),
    reasons: z.array(followupReason).describe('Every reason that applies today, most urgent first'),
    since: z.string().describe('YYYY-MM-DD: the day the oldest current reason began'),
    since_exact: z
      .boolean()
      .describe(
        'True when `since` is the day the reason began, from the facts; false when the facts of its start are not kept (an upgraded instance) and the reason began on or before `since`: shown as messages.followup.sinceAtLeast',
      ),
    days_behind: z.number().int(),
    device_name: z.string().nullable(),
    tablet_last_contact_at: z.string().nullable().describe('The last call of the tablet of any kind'),
    last_contact_at: z.string().nullable().describe('The last contact attempt recorded'),
    last_contact_method: contactMethod.nullable(),
    last_contact_outcome: contactOutcome.nullable(),
    next_followup_on: z.string().nullable().describe('YYYY-MM-DD, from the last contact'),
  })
  .meta({ id: 'FollowupEntryBasic', description: 'A worklist row (basic access: no identifiable field)' });

export const followupEntryFull = followupEntryBasic
  .extend({
    first_name: z.string(),
    last_name: z.string(),
    phone_number: z.string(),
    phone_number_secondary: z.string().nullable(),
  })
  .meta({ id: 'FollowupEntry', description: 'A worklist row with name and phone numbers (full access)' });

export type FollowupEntryBasic = z.infer<typeof followupEntryBasic>;
export type FollowupEntryFull = z.infer<typeof followupEntryFull>;
export type FollowupEntry = FollowupEntryBasic | FollowupEntryFull;

export const followupPage = z
  .object({ data: z.array(z.union([followupEntryFull, followupEntryBasic])), pagination })
  .meta({ id: 'FollowupPage' });
export type FollowupPage = { data: FollowupEntry[]; pagination: z.infer<typeof pagination> };

/** `GET /api/followup/counts` */
export const followupCountsQuery = z.object(siteFilter);

export const followupCounts = z
  .object({
    total: z.number().int().describe('Participants on the worklist today'),
    daily_check_last_run_on: z
      .string()
      .nullable()
      .describe('YYYY-MM-DD: the last day the daily adherence check finished (null: never)'),
    daily_check_overdue: z
      .boolean()
      .describe('True when the daily check has not finished since yesterday: days behind may be out of date'),
    reasons: z.object(
      Object.fromEntries(FOLLOWUP_REASONS.map((r) => [r, z.number().int()])) as Record<
        (typeof FOLLOWUP_REASONS)[number],
        z.ZodNumber
      >,
    ),
  })
  .meta({
    id: 'FollowupCounts',
    description: 'Participants on the worklist, per reason (one may have several)',
  });
export type FollowupCounts = z.infer<typeof followupCounts>;

export const createContactBody = z
  .object({
    method: contactMethod,
    outcome: contactOutcome,
    note: z
      .string({ error: m.noteTooLong })
      .trim()
      .max(CONTACT_NOTE_MAX, { error: m.noteTooLong })
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
    next_followup_on: z
      .string({ error: m.dateInvalid })
      .refine(isIsoDate, { error: m.dateInvalid })
      .optional()
      .describe('YYYY-MM-DD, today or later: off the worklist until then unless a new reason appears'),
  })
  .meta({ id: 'CreateContact' });
export type CreateContactBody = z.input<typeof createContactBody>;
export type CreateContactInput = z.output<typeof createContactBody>;

/** A contact log entry; `note` only for full access (`has_note` for everyone). */
export const contactEntry = z
  .object({
    contact_id: z.number().int(),
    participant_id: z.number().int(),
    method: contactMethod,
    outcome: contactOutcome,
    note: z.string().nullable().optional().describe('Full access only'),
    has_note: z.boolean(),
    next_followup_on: z.string().nullable(),
    reasons: z.array(followupReason).describe('The reasons that applied when the contact was recorded'),
    admin_user_name: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'ContactEntry' });
export type ContactEntry = z.infer<typeof contactEntry>;

export const participantMessagesQuery = z.object({ ...pageQuery(50, 200) });

/** A push message's fate; `title` and `body` only for full access (the rule for push texts). */
export const participantMessage = z
  .object({
    push_id: z.number().int(),
    kind: z.string().describe('message (staff), participant-notified, new-video, missed-video'),
    title: z.string().optional(),
    body: z.string().optional(),
    status: z.string(),
    provider_answer: z
      .string()
      .nullable()
      .describe(
        "What Firebase answered: 'accepted', or its error (such as UNREGISTERED); null before an answer",
      ),
    attempts: z.number().int(),
    queued_at: z.string(),
    sent_at: z.string().nullable(),
    token_tail: z.string().nullable().describe('The last 6 characters of the token it went to'),
  })
  .meta({ id: 'ParticipantMessage' });
export type ParticipantMessage = z.infer<typeof participantMessage>;

export const participantMessagePage = z
  .object({ data: z.array(participantMessage), pagination })
  .meta({ id: 'ParticipantMessagePage' });
export type ParticipantMessagePage = z.infer<typeof participantMessagePage>;
