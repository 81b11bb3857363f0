// Without zod, like participant-names.ts: the names the life cycle, follow-up and reports share
// (API values and database values alike). Their schemas and messages live with each feature.

/** A participation: active until a discharge ends it as completed or withdrawn (re-referral makes it active again). */
export const PARTICIPANT_STATUSES = ['active', 'completed', 'withdrawn'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/**
 * The grid's status filter: one status, or every participant. Active by default. Here, without zod,
 * because the participant list's first download reads it (life-cycle.ts's schema would bring zod
 * and the contract's schemas into that page).
 */
export const PARTICIPANT_STATUS_FILTERS = [...PARTICIPANT_STATUSES, 'all'] as const;
export type ParticipantStatusFilter = (typeof PARTICIPANT_STATUS_FILTERS)[number];

/** How a discharge ends a participation. */
export const DISCHARGE_OUTCOMES = ['completed', 'withdrawn'] as const;
export type DischargeOutcome = (typeof DISCHARGE_OUTCOMES)[number];

/** Why a participant withdrew (required with outcome `withdrawn`). */
export const WITHDRAWAL_REASONS = [
  'moved_away',
  'health_reasons',
  'lost_interest',
  'not_contactable',
  'other',
] as const;
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number];

export const WITHDRAWAL_REASON_LABELS: Record<WithdrawalReason, string> = {
  moved_away: 'Moved away',
  health_reasons: 'Health reasons',
  lost_interest: 'Lost interest',
  not_contactable: 'Not contactable',
  other: 'Other',
};

/** How staff tried to reach a participant (the contact log). */
export const CONTACT_METHODS = ['phone', 'text', 'email', 'in_person', 'letter'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

/** What came of a contact attempt. */
export const CONTACT_OUTCOMES = ['reached', 'no_answer', 'left_message', 'wrong_number', 'declined'] as const;
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];

/** Why a participant is on the follow-up worklist, most urgent first. */
export const FOLLOWUP_REASONS = [
  'behind',
  'tablet_silent',
  'reminders_failing',
  'slightly_behind',
  'programme_finished',
  'not_started',
  'assessment_due',
] as const;
export type FollowupReason = (typeof FOLLOWUP_REASONS)[number];

/** A session must have signed in or stepped up within this many minutes for a dangerous action. */
export const STEP_UP_MAX_AGE_MINUTES = 5;
/**
 * The marker of a refusal that asks for a step-up: a 401 whose body holds `step_up_required: true`
 * (besides its message). The console shows the step-up form and retries the request.
 */
export const STEP_UP_REQUIRED = 'step_up_required';

export const PARTICIPANT_STATUS_LABELS: Record<ParticipantStatus, string> = {
  active: 'Active',
  completed: 'Completed',
  withdrawn: 'Withdrawn',
};

/** How many years a participant's record is kept after discharge unless the operator says otherwise. */
export const DEFAULT_PARTICIPANT_RETENTION_YEARS = 8;

/** The retention rule as the product states it (the Records due for review screen and the docs). */
export function retentionRule(years: number): string {
  return `Participant records are kept for ${years} ${years === 1 ? 'year' : 'years'} after discharge (UK GDPR storage limitation; the NHS Records Management Code of Practice keeps adult health records 8 years after care ends). Destruction is reviewed, not automatic: nothing is destroyed until a person selects the records and confirms.`;
}
