import type { AuditAction } from '@pathway/contract';

// Every query key of the console, one factory per feature. They live here rather than in each
// feature because features refresh each other's answers (a device change alters participants, a
// progress change the dashboard and the video sets) and features do not import each other: a
// feature asks for another's key by name here, never by writing its literal.

export const sessionKeys = {
  all: ['session'] as const,
};

export const participantKeys = {
  all: ['participants'] as const,
  /** A page of the grid; the keyset cursor is left out, it only says how to read the same page. */
  list: (filters: object) => [...participantKeys.all, 'list', filters] as const,
  detail: (id: number) => [...participantKeys.all, 'one', id] as const,
  referral: (id: number) => [...participantKeys.all, 'referral', id] as const,
};

/** One participant's programme tabs: progress, summary, push messages. */
export const progressKeys = {
  of: (participantId: number) => ['participant-progress', participantId] as const,
  progress: (participantId: number) => [...progressKeys.of(participantId), 'progress'] as const,
  summary: (participantId: number, videoSetId: number) =>
    [...progressKeys.of(participantId), 'summary', videoSetId] as const,
  pushMessages: (participantId: number) => [...progressKeys.of(participantId), 'push'] as const,
};

// Follow-up worklist, contact log and message fates.
export const followupKeys = {
  all: ['followup'] as const,
  list: (filters: object) => [...followupKeys.all, 'list', filters] as const,
  /** The worklist's counts, of every site the admin sees or of one (a prefix of every site's). */
  counts: (siteId?: number) =>
    siteId === undefined
      ? ([...followupKeys.all, 'counts'] as const)
      : ([...followupKeys.all, 'counts', siteId] as const),
  contacts: (participantId: number) => [...followupKeys.all, 'contacts', participantId] as const,
  messages: (participantId: number, page: number, perPage: number) =>
    [...followupKeys.all, 'messages', participantId, page, perPage] as const,
};

// Outcome measures, schedules and a participant's results.
export const outcomeKeys = {
  all: ['outcomes'] as const,
  measures: () => [...outcomeKeys.all, 'measures'] as const,
  schedule: (videoSetId: number) => [...outcomeKeys.all, 'schedule', videoSetId] as const,
  of: (participantId: number) => [...outcomeKeys.all, 'participant', participantId] as const,
  results: (participantId: number) => [...outcomeKeys.of(participantId), 'results'] as const,
  due: (participantId: number) => [...outcomeKeys.of(participantId), 'due'] as const,
  report: (measure: string, from: string, to: string, siteId?: number) =>
    [...outcomeKeys.all, 'report', measure, from, to, siteId ?? 'every site'] as const,
};

export const deviceKeys = {
  all: ['authorised-devices'] as const,
  list: () => [...deviceKeys.all, 'all'] as const,
  /** Devices not assigned to anyone (the participant forms' choice). */
  available: () => [...deviceKeys.all, 'available'] as const,
  signIns: (page: number, perPage: number, flaggedOnly: boolean) =>
    [...deviceKeys.all, 'sign-ins', page, perPage, flaggedOnly] as const,
};

export const videoSetKeys = {
  all: ['video-sets'] as const,
  detail: (id: number) => [...videoSetKeys.all, id] as const,
  videos: (id: number) => [...videoSetKeys.detail(id), 'videos'] as const,
  thumbs: (id: number) => [...videoSetKeys.detail(id), 'thumbs'] as const,
  deletionImpact: (id: number) => [...videoSetKeys.detail(id), 'deletion-impact'] as const,
  videoDeletionImpact: (videoId: number) =>
    [...videoSetKeys.all, 'video', videoId, 'deletion-impact'] as const,
  uploadSettings: ['upload-settings'] as const,
};

export const adminKeys = {
  all: ['admin-users'] as const,
  lockouts: ['lockouts'] as const,
};

export const auditKeys = {
  page: (page: number, perPage: number, action: AuditAction | null) =>
    ['audit', page, perPage, action] as const,
};

export const dashboardKeys = {
  all: ['dashboard'] as const,
  /** The figures, of every site the admin sees or of one. */
  figures: (siteId?: number) =>
    siteId === undefined ? dashboardKeys.all : ([...dashboardKeys.all, 'site', siteId] as const),
  breakGlass: () => ['dashboard', 'break-glass'] as const,
};

export const reportKeys = {
  all: ['reports'] as const,
  report: (name: string, from: string, to: string, by: string, siteId?: number) =>
    [...reportKeys.all, name, from, to, by, siteId ?? 'every site'] as const,
};

export const logKeys = {
  all: ['server-logs'] as const,
  file: (fileName: string) => [...logKeys.all, fileName] as const,
};

export const retentionKeys = {
  all: ['retention'] as const,
};

export const recordsKeys = {
  all: ['records'] as const,
  due: () => [...recordsKeys.all, 'due'] as const,
};

/** Organisations and their sites (the Organisations page, and the site selectors of other pages). */
export const organisationKeys = {
  all: ['organisations'] as const,
  list: () => [...organisationKeys.all, 'list'] as const,
  sites: (organisationId: number) => [...organisationKeys.all, 'sites', organisationId] as const,
};

export const ssoKeys = {
  all: ['sso'] as const,
  settings: (organisationId: number) => ['sso', 'settings', organisationId] as const,
};
