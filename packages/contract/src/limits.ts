/** Business constants of spec §9 and the security model of DESIGN.md. */
export const limits = {
  usernameMin: 6,
  /** NCSC / ASVS 2.1.1: at least 12 characters for staff passwords (the spec's 8 is raised). */
  passwordMin: 12,
  textMin: 2,
  /** Long enough for any real name or note, short enough that nobody can post megabytes. */
  shortTextMax: 200,
  longTextMax: 5000,
  phoneOnAdd: /^\+\d{12}$/,
  dobEarliest: '1900-01-01',
  participantsPerRequest: 100,
  participantsDefaultPerPage: 25,
  participantsMaxPerPage: 500,
  /** The page sizes the console's grid offers; the server keeps a prepared statement for each. */
  participantsPageSizes: [10, 25, 50, 100] as number[],
  chartWindowDays: 7,
  sessionIdleMinutes: 30,
  sessionMaxHours: 12,
  totpPeriodSeconds: 30,
  totpDigits: 6,
  totpDriftSteps: 1,
  /** A programme of ten years is already far beyond any real one; the bound keeps the week picker sane. */
  weeksMax: 520,
  /** One video per exercise day, at most one a day of the week (DESIGN.md programme rules). */
  videosInWeekMax: 7,
  thumbnailWidth: 100,
  thumbnailHeight: 80,
  posterMaxWidth: 1280,
  /** Size of one resumable-upload request: small enough for proxies, large enough to be quick. */
  uploadChunkBytes: 8 * 1024 * 1024,
  /** How many of a participant's most recent push messages the console lists. */
  recentPushMessages: 50,
  /** Bulk referrals: the largest CSV file and the most rows one import takes. */
  participantImportMaxBytes: 5 * 1024 * 1024,
  participantImportMaxRows: 5000,
} as const;
