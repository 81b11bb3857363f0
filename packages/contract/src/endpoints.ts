import { z } from 'zod';
import { API_ROUTES } from './api-routes.js';
import { endpoint } from './endpoint.js';
import {
  adminUser,
  adminUserNameParam,
  authenticatorReset,
  changePasswordBody,
  createAdminBody,
  createdAdminUser,
  resetPasswordBody,
  updateAdminBody,
} from './admin.js';
import { auditExportQuery, auditListQuery, auditPage } from './audit.js';
import { lockout, lockoutUserNameParam } from './auth.js';
import { idParam, okResponse } from './common.js';
import { limits } from './limits.js';
import { dashboardData, dashboardQuery } from './dashboard.js';
// Reports
import { reportAnswer, reportExportQuery, reportParams, reportQuery } from './reports.js';
import {
  contactEntry,
  createContactBody,
  followupCounts,
  followupCountsQuery,
  followupListQuery,
  followupPage,
  participantMessagePage,
  participantMessagesQuery,
} from './followup.js';
import {
  authorisedDevice,
  authorisedDeviceView,
  createDeviceBody,
  deviceIdParams,
  deviceSignInPage,
  deviceSignInQuery,
  deviceUuidParams,
  updateDeviceBody,
} from './devices.js';
import { logFileName, logList, logReadQuery } from './logs.js';
import {
  createOrganisationBody,
  createSiteBody,
  organisation,
  organisationIdParams,
  site,
  siteIdParams,
  transferParticipantBody,
  updateOrganisationBody,
  updateSiteBody,
} from './organisations.js';
import {
  backchannelLogoutBody,
  jwksAnswer,
  ssoCallbackQuery,
  ssoConfig,
  ssoConfigBody,
  ssoOrganisationParams,
  ssoStartQuery,
  ssoTestBody,
  ssoTestResult,
} from './sso.js';
import { dischargeBody, destroyRecordsBody, recordsDestroyed, recordsDue, stepUpBody } from './life-cycle.js';
import {
  createParticipantBody,
  participantExportQuery,
  participantIdParams,
  participantImportQuery,
  participantImportReport,
  participantListQuery,
  participantPage,
  participantSaved,
  participantView,
  referral,
  updateParticipantBody,
} from './participants.js';
import {
  createProgressBody,
  moveProgressBody,
  participantIdParam,
  participationProgress,
  progressSummary,
  pushOutboxEntry,
  summaryParams,
  updateProgressBody,
} from './progress.js';
import {
  amendAssessmentBody,
  assessmentEntry,
  assessmentParams,
  assessmentSchedule,
  createMeasureBody,
  measure,
  measureIdParams,
  outcomesReport,
  outcomesReportQuery,
  participantOutcomes,
  recordAssessmentBody,
  updateMeasureBody,
} from './outcomes.js';
import { pushNotificationBody } from './push.js';
import { retentionPolicy } from './retention.js';
import { sessionEndpoints } from './session-endpoints.js';
import {
  createVideoBody,
  createVideoSetBody,
  reextractThumbnailBody,
  thumbsQuery,
  thumbsQueued,
  updateVideoBody,
  updateVideoSetBody,
  uploadSettings,
  video,
  videoDeletionImpact,
  videoIdParams,
  videoSet,
  videoSetDeleted,
  videoSetDeletionImpact,
  videoSetIdParam,
  videoSetIdParams,
  videoThumbs,
} from './videos.js';

// The staff console's routes, each written once: method, path, access and permission come from
// the route table (API_ROUTES, api-routes.ts), which each entry spreads; here each gains its
// schemas and OpenAPI text. The server registers and guards each route from its entry
// (apps/server/src/lib/endpoint-route.ts adds its access, the shared error answers and the OpenAPI
// text), and the console's client (apps/web/src/lib/api.ts, `call(apiRoutes.x.y, { params, query,
// body })`) takes its request and answer types from the same entry.

/** The usual refusals of a staff route: bad input, no session, not allowed, not found, conflict. */
const STAFF_ERRORS = [400, 401, 403, 404, 409] as const;

const roleNote =
  'Full access receives the `Participant` shape (with contact data); basic access receives `ParticipantBasic`, which has no identifiable field at all.';

const auth = {
  ...sessionEndpoints,
  changeOwnPassword: endpoint({
    ...API_ROUTES.auth.changeOwnPassword,
    body: changePasswordBody,
    responses: { 200: okResponse },
    errors: [400, 401, 403, 429, 503],
    tags: ['auth'],
    summary:
      'Change your own password, with your current password and a new authenticator code; every session of yours ends',
  }),
  stepUp: endpoint({
    ...API_ROUTES.auth.stepUp,
    body: stepUpBody,
    responses: { 200: okResponse },
    errors: [400, 401, 429, 503],
    tags: ['auth'],
    summary:
      'Step-up: confirm your password and a new authenticator code; dangerous actions are then allowed for 5 minutes',
    description:
      'Throttled and locked out like a sign-in (the failures count together). Dangerous actions (a full-access admin created or promoted, another admin reset, participants deleted or destroyed, the whole participant list exported, the subject access download) answer 401 with `step_up_required: true` when the session signed in or stepped up more than 5 minutes ago.',
  }),
};

const REDIRECT_NOTE =
  'Answers 302: a browser navigates here, it is not called with fetch. A refusal goes back to `/login?sso=<reason>`, where the sign-in page says why in words; it creates no session and is recorded in the audit trail (`sso.refused`).';

const sso = {
  get: endpoint({
    ...API_ROUTES.sso.get,
    params: ssoOrganisationParams,
    responses: { 200: ssoConfig },
    errors: [400, 401, 403, 404],
    tags: ['sso'],
    summary:
      "The organisation's single sign-on settings (never its secrets), and the addresses to register at the provider",
    description:
      'Full access of that organisation, or a system administrator. Before the first PUT, `configured` is false and the answer still gives the redirect, back-channel logout and JWKS addresses to register.',
  }),
  update: endpoint({
    ...API_ROUTES.sso.update,
    params: ssoOrganisationParams,
    body: ssoConfigBody,
    responses: { 200: ssoConfig },
    errors: [400, 401, 403, 404, 409],
    tags: ['sso'],
    summary:
      "Set the organisation's OpenID Connect provider, how its claims map to roles, and whether it is required",
    description:
      'Full access of that organisation after a step-up, or a system administrator. The client secret is sealed with the secrets key; with private_key_jwt Pathway generates a key pair (once) and publishes the public key at GET /api/sso/jwks.json. `required: true` refuses password sign-in to everyone but `break_glass`, who must include a full-access admin. Recorded in the audit trail (`sso.configure`).',
  }),
  test: endpoint({
    ...API_ROUTES.sso.test,
    params: ssoOrganisationParams,
    body: ssoTestBody,
    responses: { 200: ssoTestResult },
    errors: [400, 401, 403, 404],
    tags: ['sso'],
    summary:
      "Test connection: fetch the provider's discovery document and keys, and say in words what is wrong",
    description:
      'Uses the stored settings, or the `issuer`, `client_auth` and `acr_values` given (to test before saving). A provider that cannot be reached or answers wrongly is a 200 with `ok: false` and the reason.',
  }),
  start: endpoint({
    ...API_ROUTES.sso.start,
    query: ssoStartQuery,
    responses: {},
    errors: [429],
    tags: ['sso'],
    summary:
      "Start a single sign-on: 302 to the email domain's identity provider (authorization code, PKCE, state, nonce)",
    description: `${REDIRECT_NOTE} The state is bound to this browser by a short-lived signed HttpOnly cookie (\`sso_flow\`), so a sign-in finished in another browser (login CSRF) is refused.`,
  }),
  callback: endpoint({
    ...API_ROUTES.sso.callback,
    query: ssoCallbackQuery,
    responses: {},
    errors: [429],
    tags: ['sso'],
    summary:
      "The provider's redirect back: 302 to /dashboard with the session cookie, or to /login with the reason",
    description: `${REDIRECT_NOTE} The ID token is checked by openid-client (issuer, audience, signature, expiry, nonce, PKCE, state; \`acr\` when asked); the state works once. The admin is found by the provider's subject (linked on the first sign-in by a verified email of the organisation's domains, or created when \`jit\`), and their role updated from the role claim; a role claim that maps to no role refuses the sign-in and ends the person's sessions.`,
  }),
  backchannelLogout: endpoint({
    ...API_ROUTES.sso.backchannelLogout,
    body: backchannelLogoutBody,
    consumes: ['application/x-www-form-urlencoded'],
    responses: { 200: okResponse },
    errors: [400, 429],
    tags: ['sso'],
    summary: 'OpenID Connect Back-Channel Logout: the provider ends every Pathway session of the person',
    description:
      "A form body with `logout_token`, validated as Back-Channel Logout 1.0 section 2.6 says (signature by the provider's keys, iss, aud, iat, exp, an events claim, sub or sid, no nonce, a jti used once). Every session of that person ends at once; recorded in the audit trail (`sso.backchannel_logout`).",
  }),
  jwks: endpoint({
    ...API_ROUTES.sso.jwks,
    responses: { 200: jwksAnswer },
    errors: [],
    tags: ['sso'],
    summary:
      "Pathway's public keys for private_key_jwt client authentication (register this URL at the provider)",
  }),
  stepUp: endpoint({
    ...API_ROUTES.sso.stepUp,
    responses: {},
    errors: [401, 429],
    tags: ['sso'],
    summary:
      'Step-up through the identity provider (prompt=login, max_age): 302 to the provider, back to /sso/step-up-done',
    description:
      'For a session that signed in through the provider. Opened in a window of its own by the step-up dialog; the same person must sign in at the provider again, then dangerous actions are allowed for 5 minutes (recorded as `session.step_up`).',
  }),
};

const lockouts = {
  list: endpoint({
    ...API_ROUTES.lockouts.list,
    responses: { 200: z.array(lockout) },
    errors: [400, 401, 403, 404],
    tags: ['admin users'],
    summary: 'User names whose sign-ins are locked or slowed down now, per source address',
  }),
  lift: endpoint({
    ...API_ROUTES.lockouts.lift,
    params: lockoutUserNameParam,
    responses: { 200: okResponse },
    errors: [400, 401, 403, 404],
    tags: ['admin users'],
    summary: 'Lift the sign-in lock of a user name, from every address',
  }),
};

const admins = {
  list: endpoint({
    ...API_ROUTES.admins.list,
    responses: { 200: z.array(adminUser) },
    errors: STAFF_ERRORS,
    tags: ['admin users'],
    summary: 'List admin users',
  }),
  create: endpoint({
    ...API_ROUTES.admins.create,
    body: createAdminBody,
    responses: { 201: createdAdminUser },
    errors: STAFF_ERRORS,
    tags: ['admin users'],
    summary: 'Add an admin user; answers the QR code for their authenticator app',
  }),
  update: endpoint({
    ...API_ROUTES.admins.update,
    params: adminUserNameParam,
    body: updateAdminBody,
    responses: { 200: adminUser },
    errors: STAFF_ERRORS,
    tags: ['admin users'],
    summary: 'Change role and names (the user name cannot change)',
  }),
  remove: endpoint({
    ...API_ROUTES.admins.remove,
    params: adminUserNameParam,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['admin users'],
    summary: 'Delete an admin user immediately',
  }),
  resetAuthenticator: endpoint({
    ...API_ROUTES.admins.resetAuthenticator,
    params: adminUserNameParam,
    responses: { 200: authenticatorReset },
    errors: STAFF_ERRORS,
    tags: ['admin users'],
    summary:
      "Reset another admin's authenticator: a new TOTP secret (answered once as a QR code), and every session of theirs ends",
  }),
  resetPassword: endpoint({
    ...API_ROUTES.admins.resetPassword,
    params: adminUserNameParam,
    body: resetPasswordBody,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['admin users'],
    summary: "Set another admin's password (the password policy applies); every session of theirs ends",
  }),
};

const organisations = {
  list: endpoint({
    ...API_ROUTES.organisations.list,
    responses: { 200: z.array(organisation) },
    errors: [401],
    tags: ['organisations'],
    summary: "Organisations: a system administrator's every one, anyone else's own",
    description:
      'Each with its number of sites and of participants (counts only: a system administrator reads no participant record of another organisation).',
  }),
  create: endpoint({
    ...API_ROUTES.organisations.create,
    body: createOrganisationBody,
    responses: { 201: organisation },
    errors: [400, 401, 403, 409],
    tags: ['organisations'],
    summary: 'A new organisation, with a first site of the same name and ODS code (system administrators)',
    description:
      'Its first admin is then added with `POST /api/admin` and its `organisation_id`. A duplicate name or ODS code answers 409; an ODS code that is not 3 to 5 letters and digits, 400.',
  }),
  update: endpoint({
    ...API_ROUTES.organisations.update,
    params: organisationIdParams,
    body: updateOrganisationBody,
    responses: { 200: organisation },
    errors: STAFF_ERRORS,
    tags: ['organisations'],
    summary: 'Rename an organisation or set its ODS code (system administrators)',
  }),
  sites: endpoint({
    ...API_ROUTES.organisations.sites,
    params: organisationIdParams,
    responses: { 200: z.array(site) },
    errors: [400, 401, 404],
    tags: ['organisations'],
    summary: "An organisation's sites (a system administrator's any organisation, anyone else's own)",
  }),
  createSite: endpoint({
    ...API_ROUTES.organisations.createSite,
    params: organisationIdParams,
    body: createSiteBody,
    responses: { 201: site },
    errors: STAFF_ERRORS,
    tags: ['organisations'],
    summary: 'A new site of an organisation (system administrators)',
  }),
};

const sites = {
  update: endpoint({
    ...API_ROUTES.sites.update,
    params: siteIdParams,
    body: updateSiteBody,
    responses: { 200: site },
    errors: STAFF_ERRORS,
    tags: ['organisations'],
    summary: 'Rename a site or set its ODS code (system administrators)',
  }),
};

const logs = {
  list: endpoint({
    ...API_ROUTES.logs.list,
    responses: { 200: logList },
    errors: [400, 401, 403, 404],
    tags: ['server logs'],
    summary: 'Names of the daily log files, newest first',
  }),
  read: endpoint({
    ...API_ROUTES.logs.read,
    params: z.object({ fileName: logFileName }),
    query: logReadQuery,
    responses: {},
    produces: ['text/plain'],
    errors: [400, 401, 403, 404],
    tags: ['server logs'],
    summary:
      'The content of one log file (JSON lines); ?view=true when shown in the viewer (audited as a view)',
  }),
};

const devices = {
  list: endpoint({
    ...API_ROUTES.devices.list,
    responses: { 200: z.array(authorisedDeviceView) },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary: "Every authorised device; full access also sees the assigned participant's names",
    description: 'Basic access sees the uuid of an assigned device masked (…7f3a).',
  }),
  signIns: endpoint({
    ...API_ROUTES.devices.signIns,
    query: deviceSignInQuery,
    responses: { 200: deviceSignInPage },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary:
      'Device sign-in records: every call 1 that handed out a token and every call 2 that changed a push token, newest first',
    description:
      "A device id is not a secret; these records show who used one, from which address. `flagged` marks a call 1 from a new address while the tablet's token was in use within the hour. The read is recorded in the audit trail.",
  }),
  available: endpoint({
    ...API_ROUTES.devices.available,
    responses: { 200: z.array(authorisedDevice) },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary: 'Devices not assigned to any participant',
  }),
  byUuid: endpoint({
    ...API_ROUTES.devices.byUuid,
    params: deviceUuidParams,
    responses: { 200: z.array(authorisedDeviceView) },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary: 'The device with this uuid, as an array (empty when unknown)',
  }),
  create: endpoint({
    ...API_ROUTES.devices.create,
    body: createDeviceBody,
    responses: { 201: authorisedDevice },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary: 'Add a device (the uuid is stored lower-cased and must be unique)',
  }),
  update: endpoint({
    ...API_ROUTES.devices.update,
    params: deviceIdParams,
    body: updateDeviceBody,
    responses: { 200: authorisedDeviceView },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary: "Change a device's name or uuid (a new uuid ends the old tablet's sign-in)",
    description:
      'Changing the uuid of a device assigned to a participant needs full access. A masked uuid (…7f3a, as basic access sees it) means unchanged.',
  }),
  remove: endpoint({
    ...API_ROUTES.devices.remove,
    params: deviceIdParams,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['authorised devices'],
    summary: 'Delete an unassigned device',
  }),
};

const participants = {
  list: endpoint({
    ...API_ROUTES.participants.list,
    query: participantListQuery,
    responses: { 200: participantPage },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary: 'A page of participants, filtered by adherence state, searched and sorted',
    description: `${roleNote} Full-access reads are recorded in the audit trail. Sorting by names or date of birth needs full access.`,
  }),
  export: endpoint({
    ...API_ROUTES.participants.export,
    query: participantExportQuery,
    responses: {},
    produces: ['text/csv'],
    errors: [400, 401, 403, 404],
    tags: ['participants'],
    summary: 'The whole participant list as CSV, filtered, searched and sorted as the grid asks',
    description:
      'Streams every row (read in keyset batches). Full access receives the contact columns and every batch is recorded in the audit trail with its participants, as a page of the list is; basic access receives non-identifiable columns only, and may not sort by names or date of birth. `tracking` is the adherence state in words, or "No programme". The `x-total-count` header says how many rows follow.',
  }),
  get: endpoint({
    ...API_ROUTES.participants.get,
    params: participantIdParams,
    responses: { 200: participantView },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary: 'One participant',
    description: roleNote,
  }),
  referral: endpoint({
    ...API_ROUTES.participants.referral,
    params: participantIdParams,
    responses: { 200: referral },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary: 'The referral of one participant (full access; recorded in the audit trail)',
    description: 'Referral fields are changed with PATCH /api/participant/{id}.',
  }),
  create: endpoint({
    ...API_ROUTES.participants.create,
    body: createParticipantBody,
    responses: { 201: participantSaved },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary: 'Add a participant with their referral and device',
  }),
  update: endpoint({
    ...API_ROUTES.participants.update,
    params: participantIdParams,
    body: updateParticipantBody,
    // A tablet's purge_cache (device API call 3) is answered { message }; staff get the participant.
    responses: { 200: z.union([participantSaved, okResponse]) },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary:
      'Change the fields sent: details, referral, purge_cache, or the device (uuid, or "empty" to detach)',
    description: `${roleNote} Identifiable and referral fields can be changed with full access only. A tablet (bearer token) may only send purge_cache for its own participant, as a form or JSON body.`,
  }),
  remove: endpoint({
    ...API_ROUTES.participants.remove,
    params: participantIdParams,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary: 'Delete a participant, their progress and their device pairing',
  }),
  message: endpoint({
    ...API_ROUTES.participants.message,
    body: pushNotificationBody,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary: 'Message user: queue a push message to the tablet with this uuid',
  }),
  // Bulk referrals from CSV
  import: endpoint({
    ...API_ROUTES.participants.import,
    query: participantImportQuery,
    body: z
      .string()
      .describe("The CSV file: the template's header line, then one participant a line (UTF-8)"),
    consumes: ['text/csv'],
    responses: { 200: participantImportReport },
    errors: [400, 401, 403, 413, 415, 422],
    tags: ['participants'],
    summary: 'Import participants from a CSV file: check every row, then add all of them or none',
    description: `Every row is checked with the add form's rules and messages, and the NHS numbers against the register and each other. With \`dry_run=true\` (the default) nothing changes and the answer lists the errors by line and column and the possible duplicates (warnings). With \`dry_run=false\` the participants are added in one transaction, without a device or programme, if and only if no row has an error (else 422, nothing added). The body is the file itself, \`text/csv\`, at most ${limits.participantImportMaxBytes / 1024 / 1024} MB and ${limits.participantImportMaxRows} rows.`,
  }),
  discharge: endpoint({
    ...API_ROUTES.participants.discharge,
    params: participantIdParams,
    body: dischargeBody,
    responses: { 200: participantView },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary:
      'Discharge: end the participation as completed, or withdrawn with a reason; the device is detached and its tokens revoked, reminders stop, the position is frozen',
    description:
      'One transaction, audited. The record is then read-only (changes answer 409) until re-referral.',
  }),
  rerefer: endpoint({
    ...API_ROUTES.participants.rerefer,
    params: participantIdParams,
    responses: { 200: participantView },
    errors: STAFF_ERRORS,
    tags: ['participants'],
    summary:
      'Re-refer a discharged participant: active again (audited); then choose a device and a programme',
  }),
  record: endpoint({
    ...API_ROUTES.participants.record,
    params: participantIdParams,
    responses: {},
    produces: ['application/zip'],
    errors: [400, 401, 403, 404],
    tags: ['participants'],
    summary:
      'Subject access: one ZIP of everything held about the participant (an HTML summary and a JSON file per table)',
    description:
      'Full access (records.manage), with a fresh step-up. Audited. Holds every row about them: the participant and referral, adherence, programme history, video views, push messages, contact log, device assignments, tablet sign-ins and tokens (hashes left out), and every audit record about them.',
  }),
  transfer: endpoint({
    ...API_ROUTES.participants.transfer,
    params: participantIdParams,
    body: transferParticipantBody,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['participants', 'organisations'],
    summary: 'Move a participant to another site of their organisation, with their tablet and history',
    description:
      "Full access. Audited (participant.transfer, with both sites). The site must be one of the participant's organisation's sites (400 otherwise, and for the site they are at); a participant the admin does not see answers 404.",
  }),
};

const records = {
  due: endpoint({
    ...API_ROUTES.records.due,
    responses: { 200: recordsDue },
    errors: [401, 403],
    tags: ['records'],
    summary: `Records due for review: participants discharged more than PARTICIPANT_RETENTION_YEARS ago, longest first`,
    description: 'Full access (records.manage); the read is audited. Nothing is destroyed by this list.',
  }),
  destroy: endpoint({
    ...API_ROUTES.records.destroy,
    body: destroyRecordsBody,
    responses: { 200: recordsDestroyed },
    errors: [400, 401, 403, 404, 409],
    tags: ['records'],
    summary:
      'Destroy the selected records due for review: every row about each participant, leaving one audit record each',
    description:
      'All or nothing: a participant who is unknown or not due for review refuses the whole request (409) and nothing is destroyed. Needs a fresh step-up.',
  }),
};

const pushMessages = {
  ofParticipant: endpoint({
    ...API_ROUTES.pushMessages.ofParticipant,
    params: participantIdParam,
    responses: { 200: z.array(pushOutboxEntry) },
    errors: [401, 404],
    tags: ['push messages'],
    summary: `The ${limits.recentPushMessages} most recent push messages to a participant, with their delivery status`,
  }),
};

// Follow-up worklist, contact log and every message's fate.
const followup = {
  list: endpoint({
    ...API_ROUTES.followup.list,
    query: followupListQuery,
    responses: { 200: followupPage },
    errors: STAFF_ERRORS,
    tags: ['follow-up'],
    summary: 'The follow-up worklist: active participants who need attention today, most urgent first',
    description:
      'Reasons: behind (days_behind >= 3), tablet_silent (no call with the tablet\'s token for FOLLOWUP_SILENT_DAYS days, "never" counted from the device\'s assignment), reminders_failing (the last 2 push messages failed, or the token is `empty` or unregistered), slightly_behind (1-2), programme_finished (watched through the last day, not discharged), not_started (registered 2 or more days ago without a device or a programme). A participant whose last contact set a next follow-up date in the future is left out until that date, unless a reason appears that was not there when the contact was recorded. Full access receives name and phone numbers (the read is recorded in the audit trail); basic access receives the id, device name and reasons only.',
  }),
  counts: endpoint({
    ...API_ROUTES.followup.counts,
    query: followupCountsQuery,
    responses: { 200: followupCounts },
    errors: STAFF_ERRORS,
    tags: ['follow-up'],
    summary: 'How many participants are on the worklist today, per reason (the dashboard card)',
  }),
  contacts: endpoint({
    ...API_ROUTES.followup.contacts,
    params: participantIdParams,
    responses: { 200: z.array(contactEntry) },
    errors: STAFF_ERRORS,
    tags: ['follow-up'],
    summary: "A participant's contact log, newest first",
    description:
      'Notes are identifiable: full access reads them (recorded in the audit trail); basic access sees only `has_note`.',
  }),
  recordContact: endpoint({
    ...API_ROUTES.followup.recordContact,
    params: participantIdParams,
    body: createContactBody,
    responses: { 201: contactEntry },
    errors: STAFF_ERRORS,
    tags: ['follow-up'],
    summary: 'Record a contact attempt (append-only; a correction is a new entry)',
    description:
      'Both roles may record contacts. Recorded in the audit trail in the same transaction. A next follow-up date (today or later) takes the participant off the worklist until then, unless a new reason appears.',
  }),
  messages: endpoint({
    ...API_ROUTES.followup.messages,
    params: participantIdParams,
    query: participantMessagesQuery,
    responses: { 200: participantMessagePage },
    errors: STAFF_ERRORS,
    tags: ['follow-up'],
    summary: 'Every push message to a participant, newest first, with its status and what Firebase answered',
    description:
      'Texts (title, body) for full access only (the read is then recorded in the audit trail); the token is shown as its last 6 characters. Reading sends nothing.',
  }),
};

// Outcome measures, each set's assessment schedule, and the results recorded against them.
const outcomes = {
  measures: endpoint({
    ...API_ROUTES.outcomes.measures,
    responses: { 200: z.array(measure) },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary:
      'The catalogue of outcome measures (numeric, and questionnaires with their items), retired ones too',
  }),
  createMeasure: endpoint({
    ...API_ROUTES.outcomes.createMeasure,
    body: createMeasureBody,
    responses: { 201: measure },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: 'Add a measure to the catalogue',
    description:
      'A numeric measure: unit (UCUM), plausible range, decimals, whether higher is better, its MCID and source. A questionnaire: items with their allowed answers and values, a scoring rule (sum or mean, reversed items), its score range (which must be what the items give) and a licence note. A licensed instrument is added by an operator under their own licence. Recorded in the audit trail.',
  }),
  updateMeasure: endpoint({
    ...API_ROUTES.outcomes.updateMeasure,
    params: measureIdParams,
    body: updateMeasureBody,
    responses: { 200: measure },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: 'Change a measure: anything until it has results, then only its name and whether it is retired',
    description:
      'Once a result is recorded, a change of what the measure records (anything but `name` and `retired`) is refused with 409: a new version is a new measure, so old results keep their meaning. A retired measure cannot be scheduled or recorded; its results stay.',
  }),
  schedule: endpoint({
    ...API_ROUTES.outcomes.schedule,
    params: videoSetIdParams,
    responses: { 200: assessmentSchedule },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: "A video set's assessment schedule: baseline, interim weeks and end, each with its measures",
  }),
  saveSchedule: endpoint({
    ...API_ROUTES.outcomes.saveSchedule,
    params: videoSetIdParams,
    body: assessmentSchedule,
    responses: { 200: assessmentSchedule },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: "Replace a video set's assessment schedule",
    description:
      'Baseline is due from registration until the end of the first programme week; end from the first day of the last week until 4 weeks after it (or from a discharge as completed); an interim from the first day of its week until 4 weeks after that week. Measures are named by code and must exist and not be retired. Recorded in the audit trail.',
  }),
  results: endpoint({
    ...API_ROUTES.outcomes.results,
    params: participantIdParams,
    responses: { 200: z.array(assessmentEntry) },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: "A participant's results and their amendments, newest first",
    description:
      'Append-only: an amendment is a new entry with `amends` naming the result it corrects, which stays. Notes and reasons are identifiable: full access reads them (recorded in the audit trail); basic access sees `has_note`.',
  }),
  record: endpoint({
    ...API_ROUTES.outcomes.record,
    params: participantIdParams,
    body: recordAssessmentBody,
    responses: { 201: assessmentEntry },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: 'Record a result: a numeric value or the answers of a questionnaire, which the server scores',
    description:
      'Both roles may record. The value is checked against the measure (range, decimals); a questionnaire needs an allowed answer for every item and is scored by its rule. The date taken is not in the future nor before registration; a participant discharged more than 4 weeks ago is refused. Recorded in the audit trail in the same transaction.',
  }),
  amend: endpoint({
    ...API_ROUTES.outcomes.amend,
    params: assessmentParams,
    body: amendAssessmentBody,
    responses: { 201: assessmentEntry },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary:
      'Correct a result: a new value, new answers, or entered in error, with a reason; the original stays',
    description:
      'The newest amendment is the value every report, chart and export uses; `entered_in_error` takes the result out of them. Recorded in the audit trail in the same transaction.',
  }),
  ofParticipant: endpoint({
    ...API_ROUTES.outcomes.ofParticipant,
    params: participantIdParams,
    responses: { 200: participantOutcomes },
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary:
      'What is due for a participant, and each current result against their baseline (the Outcomes tab)',
  }),
  fhir: endpoint({
    ...API_ROUTES.outcomes.fhir,
    params: participantIdParams,
    responses: {},
    produces: ['application/fhir+json'],
    errors: STAFF_ERRORS,
    tags: ['outcomes'],
    summary: 'The participant and their outcome results as a FHIR R4 Bundle (type collection)',
    description:
      'Patient (NHS number as identifier, system https://fhir.nhs.uk/Id/nhs-number), an Observation per numeric result (LOINC where the measure has a code, UCUM unit) and a QuestionnaireResponse per questionnaire result with its Questionnaire. Each result as it stands now: final or completed, amended once corrected, entered-in-error when withdrawn. Identifiable: full access only, recorded in the audit trail.',
  }),
};

const progress = {
  ofParticipant: endpoint({
    ...API_ROUTES.progress.ofParticipant,
    params: participantIdParam,
    responses: { 200: z.array(participationProgress) },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: "A participant's progress: an empty array until a video set is chosen",
  }),
  summary: endpoint({
    ...API_ROUTES.progress.summary,
    params: summaryParams,
    responses: { 200: progressSummary },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: 'Progress summary: days passed, videos due and seen, and each video seen',
  }),
  create: endpoint({
    ...API_ROUTES.progress.create,
    body: createProgressBody,
    responses: { 201: participationProgress },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: 'Choose a video set for a participant without one: week 1, day 1, 0 %',
    description:
      'The console then shows "User associated with video set". 409 when the participant already has a set.',
  }),
  update: endpoint({
    ...API_ROUTES.progress.update,
    params: z.object({ id: idParam }),
    body: updateProgressBody,
    responses: { 200: participationProgress },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: 'Change progress: another set resets it to week 1, day 1; week/day follow the move rules',
  }),
  moveForward: endpoint({
    ...API_ROUTES.progress.moveForward,
    params: participantIdParam,
    body: moveProgressBody,
    responses: { 200: participationProgress },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: 'Move a participant (by participant id) to a later day or week',
  }),
  moveBackward: endpoint({
    ...API_ROUTES.progress.moveBackward,
    params: participantIdParam,
    body: moveProgressBody,
    responses: { 200: participationProgress },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: 'Move a participant (by participant id) back to an earlier day of the current week',
  }),
  forwardOneDay: endpoint({
    ...API_ROUTES.progress.forwardOneDay,
    params: participantIdParam,
    responses: { 200: okResponse },
    errors: STAFF_ERRORS,
    tags: ['participation progress'],
    summary: 'Progress one day forward and notify the participant with the default message',
  }),
};

/** Video routes may also refuse a file that is not a playable video (422). */
const VIDEO_ERRORS = [...STAFF_ERRORS, 422] as const;

const videoSets = {
  list: endpoint({
    ...API_ROUTES.videoSets.list,
    responses: { 200: z.array(videoSet) },
    errors: VIDEO_ERRORS,
    tags: ['video sets'],
    summary: 'List video sets',
  }),
  create: endpoint({
    ...API_ROUTES.videoSets.create,
    body: createVideoSetBody,
    responses: { 201: videoSet },
    errors: VIDEO_ERRORS,
    tags: ['video sets'],
    summary: 'Add a video set (weeks and videos per week are fixed once made)',
  }),
  get: endpoint({
    ...API_ROUTES.videoSets.get,
    params: videoSetIdParams,
    responses: { 200: videoSet },
    errors: VIDEO_ERRORS,
    tags: ['video sets'],
    summary: 'One video set',
  }),
  rename: endpoint({
    ...API_ROUTES.videoSets.rename,
    params: videoSetIdParams,
    body: updateVideoSetBody,
    responses: { 200: videoSet },
    errors: VIDEO_ERRORS,
    tags: ['video sets'],
    summary: 'Rename a video set (only the name can change)',
  }),
  deletionImpact: endpoint({
    ...API_ROUTES.videoSets.deletionImpact,
    params: videoSetIdParams,
    responses: { 200: videoSetDeletionImpact },
    errors: VIDEO_ERRORS,
    tags: ['video sets'],
    summary: 'What deleting the set would remove (for the warning shown before it)',
  }),
  remove: endpoint({
    ...API_ROUTES.videoSets.remove,
    params: videoSetIdParams,
    responses: { 200: videoSetDeleted },
    errors: VIDEO_ERRORS,
    tags: ['video sets'],
    summary:
      "Delete a set now: its videos, participants' progress on it and their viewing records of it; files no other set uses",
  }),
  videos: endpoint({
    ...API_ROUTES.videoSets.videos,
    params: videoSetIdParams,
    responses: { 200: z.array(video) },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: "A set's videos, by week and day",
  }),
};

const videos = {
  uploadSettings: endpoint({
    ...API_ROUTES.videos.uploadSettings,
    responses: { 200: uploadSettings },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: 'Where and how the console uploads video files',
  }),
  thumbsOfSet: endpoint({
    ...API_ROUTES.videos.thumbsOfSet,
    params: videoSetIdParam,
    responses: { 200: videoThumbs },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary:
      "A set's thumbnails by week: URL once made, else its status text (device API call 6, its own programme's set only; the reload button)",
  }),
  get: endpoint({
    ...API_ROUTES.videos.get,
    params: videoIdParams,
    responses: { 200: video },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: 'One video',
  }),
  create: endpoint({
    ...API_ROUTES.videos.create,
    body: createVideoBody,
    responses: { 201: video },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: 'Save an uploaded video on one day of a set; its thumbnail is made in the background',
  }),
  update: endpoint({
    ...API_ROUTES.videos.update,
    params: videoIdParams,
    body: updateVideoBody,
    responses: { 200: video },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: 'Change title and description, or replace the file with a new upload',
  }),
  deletionImpact: endpoint({
    ...API_ROUTES.videos.deletionImpact,
    params: videoIdParams,
    responses: { 200: videoDeletionImpact },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: 'What deleting this video does to participants whose current day it is (for the delete warning)',
  }),
  remove: endpoint({
    ...API_ROUTES.videos.remove,
    params: videoIdParams,
    responses: { 200: okResponse },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: "Delete a video (participants' viewing records of it too) and the files no other video uses",
    description:
      "Participants whose current day is this video's move back to the nearest earlier day of the set with a " +
      'video; when there is none the delete is refused with 409 (a position never points at a day without a video).',
  }),
  reextractThumbnail: endpoint({
    ...API_ROUTES.videos.reextractThumbnail,
    body: reextractThumbnailBody,
    responses: { 202: okResponse },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: "Thumbnail re-extract: read the video's file again and make new pictures from it (queued)",
  }),
  requestThumbnail: endpoint({
    ...API_ROUTES.videos.requestThumbnail,
    query: thumbsQuery,
    responses: { 200: thumbsQueued },
    errors: VIDEO_ERRORS,
    tags: ['videos'],
    summary: "Ask for a video's thumbnail to be made (queued; nothing is fetched from videoUrl)",
  }),
};

const audit = {
  list: endpoint({
    ...API_ROUTES.audit.list,
    query: auditListQuery,
    responses: { 200: auditPage },
    errors: [400, 401, 403],
    tags: ['audit'],
    summary: 'The audit trail (identifiable data and security events), newest first; ?action= one kind',
  }),
  export: endpoint({
    ...API_ROUTES.audit.export,
    query: auditExportQuery,
    responses: {},
    produces: ['text/csv'],
    errors: [400, 401, 403],
    tags: ['audit'],
    summary: 'The whole audit trail as CSV, newest first (the export itself is recorded first)',
  }),
};

const dashboard = {
  get: endpoint({
    ...API_ROUTES.dashboard.get,
    query: dashboardQuery,
    responses: { 200: dashboardData },
    errors: [400, 401, 404],
    tags: ['dashboard'],
    summary: 'Participant and viewing statistics (no identifiable data)',
  }),
};

// Reports: aggregates only, so every signed-in admin may read them (no permission).
const reports = {
  get: endpoint({
    ...API_ROUTES.reports.get,
    params: reportParams,
    query: reportQuery,
    responses: { 200: reportAnswer },
    errors: [400, 401, 404],
    tags: ['reports'],
    summary: 'One report over a period (referrals, flow, adherence, programme-weeks, videos, views)',
    description:
      'Aggregate figures only, no participant named; days are calendar days of ADHERENCE_CHECK_TZ, `from` and `to` included, grouped by month or ISO week. A period longer than 3 years, `from` after `to` or a bad date is refused. Each read is recorded in the audit trail as a view of aggregate data.',
  }),
  outcomes: endpoint({
    ...API_ROUTES.reports.outcomes,
    query: outcomesReportQuery,
    responses: { 200: outcomesReport },
    errors: [400, 401, 404],
    tags: ['reports'],
    summary: 'Outcomes: the paired change of one measure for the participants who completed in the period',
    description:
      'Participants discharged as completed in the period; how many have a baseline (taken by the end of the first programme week), an end result, and both; the baseline and end median with interquartile range and the median change of those with both; how many improved by at least the MCID, stayed within it, or got worse. Amended values are used and entries in error left out. Recorded in the audit trail as a view of aggregate data.',
  }),
  exportXlsx: endpoint({
    ...API_ROUTES.reports.exportXlsx,
    query: reportExportQuery,
    responses: {},
    produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    errors: [400, 401, 404],
    tags: ['reports'],
    summary: 'Every report over a period as one XLSX workbook, a sheet per table',
    description:
      'The first sheet says the period, when the workbook was made and by whom. With `suppress_small=true` every count from 1 to 4 is written as "<5" (and shares and statistics of such small groups are left empty), for sharing outside the team. Recorded in the audit trail.',
  }),
};

const retention = {
  policy: endpoint({
    ...API_ROUTES.retention.policy,
    responses: { 200: retentionPolicy },
    errors: [401, 403],
    tags: ['operations'],
    summary:
      'How many days daily log files and audit records are kept (LOG_RETENTION_DAYS, AUDIT_RETENTION_DAYS)',
  }),
};

/** Every staff-console route, by domain: `api.participants.list`, `api.devices.create`, ... */
export const api = {
  auth,
  lockouts,
  admins,
  organisations,
  sites,
  logs,
  devices,
  participants,
  pushMessages,
  followup,
  outcomes,
  progress,
  videoSets,
  videos,
  audit,
  dashboard,
  // Reports
  reports,
  retention,
  records,
  sso,
};
