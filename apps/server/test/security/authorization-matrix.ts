/**
 * The authorization matrix: every route of the app, with the access it must declare. A route of
 * the contract's route table (API_ROUTES, deviceApi) is named by its entry, which says who may call
 * it; the routes outside the table (the docs, the console's files, uploads, media, health) are
 * written here by hand. The test (authorization.test.ts) lists the routes the app really has and
 * fails on a route missing here, a row naming a route that no longer exists, or a route declaring
 * other access than its row says; then calls every route as every kind of caller. What each caller
 * must get follows from the declaration and the contract's permission table (`can()`), so changing
 * who may call a route means changing the route table, this table or the permission table, in review.
 *
 * A HEAD route follows the GET row of the same URL (Fastify adds one beside every GET).
 */
import {
  API_ROUTES,
  BASIC_ACCESS,
  FULL_ACCESS,
  can,
  deviceApi,
  type Caller as PermissionCaller,
  type Permission,
  type RouteDeclaration,
} from '@pathway/contract';

/**
 * The signed-in callers, one per role, and a full-access system administrator (a new role adds
 * one here and its session in world.ts).
 */
export const CALLER_ROLES = {
  basic: { role: BASIC_ACCESS, systemAdministrator: false },
  full: { role: FULL_ACCESS, systemAdministrator: false },
  system: { role: FULL_ACCESS, systemAdministrator: true },
} as const satisfies Record<string, PermissionCaller>;
type StaffCaller = keyof typeof CALLER_ROLES;
export type Caller = 'anonymous' | StaffCaller | 'device';
export const CALLERS: readonly Caller[] = [
  'anonymous',
  ...(Object.keys(CALLER_ROLES) as StaffCaller[]),
  'device',
];

/** 'ok': served (any status but 401/403, never 5xx); a number: refused with exactly that status. */
export type Outcome = 'ok' | 401 | 403;
export type Expected = Record<Caller, Outcome>;

/** What a route declares (its `config`): an access level, and for staff routes a permission. */
export type Declared =
  | { access: 'public' | 'device' | 'staff-or-device'; permission?: undefined }
  | { access: 'staff'; permission?: Permission };

/** Anyone at all (routes outside the table): the console's files, the docs, health, media capability URLs. */
const ANYONE: Declared = { access: 'public' };
/** Any signed-in admin, whatever their role (the tus upload routes). */
const STAFF: Declared = { access: 'staff' };

/** What each caller gets from a route declaring this. */
export function expectedFor(declared: Declared): Expected {
  const asStaff = (caller: PermissionCaller): Outcome => {
    switch (declared.access) {
      case 'public':
      case 'staff-or-device':
        return 'ok';
      case 'device':
        return 401;
      case 'staff':
        return declared.permission === undefined || can(caller, declared.permission) ? 'ok' : 403;
    }
  };
  const staffCallers = Object.entries(CALLER_ROLES).map(([name, caller]) => [name, asStaff(caller)]);
  return {
    anonymous: declared.access === 'public' ? 'ok' : 401,
    device: declared.access === 'staff' ? 401 : 'ok',
    ...(Object.fromEntries(staffCallers) as Record<StaffCaller, Outcome>),
  };
}

/** What a request recipe may use: the seeded programme, and makers of throwaway rows. */
export interface World {
  participantId: number;
  deviceUuid: string;
  deviceId: number;
  setId: number;
  videoId: number;
  videoLocation: string;
  progressId: number;
  /** A second enrolled tablet, for the public registration call (which issues tokens). */
  otherDeviceUuid: string;
  logFileName: string;
  /** Today in the programme's calendar (a result's date taken may not be later). */
  today: string;
  /** Rows a destructive or creating call may consume, one per call. */
  freshParticipantId(): Promise<number>;
  freshDevice(): Promise<{ id: number; uuid: string }>;
  freshSetId(): Promise<number>;
  freshVideoId(): Promise<number>;
  freshAdminUserName(): Promise<string>;
  /** The seeded organisation, a throwaway one, and a throwaway site of the seeded organisation. */
  organisationId: number;
  freshOrganisationName(): string;
  freshSiteId(): Promise<number>;
  /** An outcome measure with no results (its catalogue entry may change). */
  freshMeasureId(): Promise<number>;
  /** A result recorded against the seeded participant (for an amendment). */
  freshAssessmentId(): Promise<number>;
  freshUuid(): string;
  /** Credentials for a real sign-in (a new admin and a current TOTP code each time). */
  freshLogin(): Promise<Record<string, string>>;
}

export interface Call {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

type RowDeclaration = RowCall &
  (
    | {
        /** A route of the contract's table: its method, path and access are its entry's. */
        route: RouteDeclaration;
      }
    | {
        method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD';
        url: string;
        /** The access the route must declare. */
        who: Declared;
      }
  );

interface RowCall {
  /** A request the route would accept from an allowed caller, so access is what is tested. */
  call: (w: World, caller: Caller) => Promise<Call> | Call;
  /** The route exists only when the console is built (apps/web/dist), as in CI and production. */
  onlyWithConsoleBuild?: boolean;
  /** The call ends the caller's session: it is made with a session of its own. */
  endsSession?: boolean;
}

export interface MatrixRow extends RowCall {
  method: string;
  url: string;
  declared: Declared;
  /** What each caller must get, from the declaration and the permission table. */
  who: Expected;
}

const TUS = { 'tus-resumable': '1.0.0' };

const ROWS: RowDeclaration[] = [
  // ---- operations and the console ----
  { method: 'GET', url: '/healthz', who: ANYONE, call: () => ({ url: '/healthz' }) },
  { method: 'GET', url: '/readyz', who: ANYONE, call: () => ({ url: '/readyz' }) },
  { method: 'GET', url: '/api/docs', who: ANYONE, call: () => ({ url: '/api/docs' }) },
  // Fastify reports the docs' index once as GET /api/docs, and its HEAD twin under /api/docs/.
  { method: 'HEAD', url: '/api/docs/', who: ANYONE, call: () => ({ url: '/api/docs/' }) },
  { method: 'GET', url: '/api/docs/json', who: ANYONE, call: () => ({ url: '/api/docs/json' }) },
  { method: 'GET', url: '/api/docs/yaml', who: ANYONE, call: () => ({ url: '/api/docs/yaml' }) },
  {
    method: 'GET',
    url: '/api/docs/static/index.html',
    who: ANYONE,
    call: () => ({ url: '/api/docs/static/index.html' }),
  },
  {
    method: 'GET',
    url: '/api/docs/static/swagger-initializer.js',
    who: ANYONE,
    call: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
  },
  {
    method: 'GET',
    url: '/api/docs/static/*',
    who: ANYONE,
    call: () => ({ url: '/api/docs/static/swagger-ui.css' }),
  },
  {
    method: 'GET',
    url: '/*',
    who: ANYONE,
    onlyWithConsoleBuild: true,
    call: () => ({ url: '/participants' }),
  },

  // ---- sign-in ----
  {
    route: API_ROUTES.auth.login,
    call: async (w) => ({ url: '/login', payload: await w.freshLogin() }),
  },
  { route: API_ROUTES.auth.logout, endsSession: true, call: () => ({ url: '/logout' }) },
  { route: API_ROUTES.auth.session, call: () => ({ url: '/api/session' }) },
  {
    route: API_ROUTES.auth.stepUp,
    // A wrong answer counts against the caller's user name like a sign-in: a session of its own.
    endsSession: true,
    call: () => ({
      url: '/api/session/step-up',
      payload: { password: 'not the password', mfa_token: '000000' },
    }),
  },
  {
    route: API_ROUTES.auth.changeOwnPassword,
    // A wrong current password counts against the caller's user name (and a right one would end
    // every session of theirs): each call gets a session of its own. Refused with 400, let through.
    endsSession: true,
    call: () => ({
      url: '/api/account/password',
      payload: {
        current_password: 'not the current password',
        new_password: 'a brand new passphrase for matrix',
        mfa_token: '000000',
      },
    }),
  },
  // ---- single sign-on ----
  {
    route: API_ROUTES.auth.ssoLookup,
    call: () => ({ url: '/api/sso/lookup?email=someone%40matrix.example' }),
  },
  { route: API_ROUTES.sso.get, call: () => ({ url: '/api/organisations/1/sso' }) },
  {
    route: API_ROUTES.sso.update,
    call: () => ({
      url: '/api/organisations/1/sso',
      payload: {
        issuer: 'https://idp.matrix.example',
        client_id: 'pathway',
        client_secret: 'a matrix client secret',
        client_auth: 'client_secret_basic',
        email_domains: ['matrix.example'],
        role_claim: 'roles',
        role_map: { lead: 'full access' },
        jit: false,
        required: false,
        break_glass: [],
      },
    }),
  },
  {
    route: API_ROUTES.sso.test,
    // A closed port on this machine: the answer says so, nothing leaves it.
    call: () => ({ url: '/api/organisations/1/sso/test', payload: { issuer: 'http://127.0.0.1:9' } }),
  },
  {
    route: API_ROUTES.sso.start,
    call: () => ({ url: '/api/sso/start?email=someone%40unknown.example' }),
  },
  { route: API_ROUTES.sso.callback, call: () => ({ url: '/api/sso/callback?state=unknown&code=unknown' }) },
  {
    route: API_ROUTES.sso.backchannelLogout,
    call: () => ({
      url: '/api/sso/backchannel-logout',
      payload: 'logout_token=not.a.token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  },
  { route: API_ROUTES.sso.jwks, call: () => ({ url: '/api/sso/jwks.json' }) },
  { route: API_ROUTES.sso.stepUp, call: () => ({ url: '/api/sso/step-up' }) },
  {
    route: API_ROUTES.lockouts.list,
    call: () => ({ url: '/api/lockouts' }),
  },
  {
    route: API_ROUTES.lockouts.lift,
    // No lock to lift: 404, which still shows the caller was let through.
    call: (w) => ({ url: `/api/lockouts/${encodeURIComponent(`nobody.${w.freshUuid()}`)}` }),
  },

  // ---- admin users, logs, audit ----
  { route: API_ROUTES.admins.list, call: () => ({ url: '/api/admin' }) },
  {
    route: API_ROUTES.admins.create,
    call: (w) => ({
      url: '/api/admin',
      payload: {
        user_name: `matrix.${w.freshUuid()}@example.org`,
        password: 'a long enough passphrase',
        first_name: 'Matrix',
        last_name: 'Admin',
        role: 'basic access',
      },
    }),
  },
  {
    route: API_ROUTES.admins.update,
    call: async (w) => ({
      url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}`,
      payload: { first_name: 'Renamed' },
    }),
  },
  {
    route: API_ROUTES.admins.remove,
    call: async (w) => ({ url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}` }),
  },
  {
    route: API_ROUTES.admins.resetAuthenticator,
    call: async (w) => ({
      url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}/reset-authenticator`,
    }),
  },
  {
    route: API_ROUTES.admins.resetPassword,
    call: async (w) => ({
      url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}/reset-password`,
      payload: { new_password: 'a reset passphrase for matrix' },
    }),
  },
  // ---- organisations and sites ----
  { route: API_ROUTES.organisations.list, call: () => ({ url: '/api/organisations' }) },
  {
    route: API_ROUTES.organisations.create,
    call: (w) => ({
      url: '/api/organisations',
      payload: { name: w.freshOrganisationName(), ods_code: 'RX1' },
    }),
  },
  {
    route: API_ROUTES.organisations.update,
    call: (w) => ({ url: `/api/organisations/${w.organisationId}`, payload: { ods_code: 'RXA' } }),
  },
  {
    route: API_ROUTES.organisations.sites,
    call: (w) => ({ url: `/api/organisations/${w.organisationId}/sites` }),
  },
  {
    route: API_ROUTES.organisations.createSite,
    call: (w) => ({
      url: `/api/organisations/${w.organisationId}/sites`,
      payload: { name: w.freshOrganisationName() },
    }),
  },
  {
    route: API_ROUTES.sites.update,
    call: async (w) => ({ url: `/api/sites/${await w.freshSiteId()}`, payload: { ods_code: 'RXA01' } }),
  },
  {
    route: API_ROUTES.logs.list,
    call: () => ({ url: '/api/logs/getloglist' }),
  },
  { route: API_ROUTES.retention.policy, call: () => ({ url: '/api/retention' }) },
  {
    route: API_ROUTES.logs.read,
    call: (w) => ({ url: `/api/logs/download/${w.logFileName}` }),
  },
  { route: API_ROUTES.audit.list, call: () => ({ url: '/api/audit' }) },
  {
    route: API_ROUTES.audit.export,
    call: () => ({ url: '/api/audit/export' }),
  },

  // ---- devices ----
  {
    route: API_ROUTES.devices.list,
    call: () => ({ url: '/api/authorizeddevices' }),
  },
  {
    route: API_ROUTES.devices.available,
    call: () => ({ url: '/api/authorizeddevices/available' }),
  },
  {
    route: API_ROUTES.devices.byUuid,
    call: (w) => ({ url: `/api/authorizeddevices/${w.deviceUuid}` }),
  },
  {
    route: API_ROUTES.devices.create,
    call: (w) => ({ url: '/api/authorizeddevices', payload: { name: 'Matrix tablet', uuid: w.freshUuid() } }),
  },
  {
    route: API_ROUTES.devices.update,
    call: async (w) => ({
      url: `/api/authorizeddevices/id/${(await w.freshDevice()).id}`,
      payload: { name: 'Renamed tablet' },
    }),
  },
  {
    route: API_ROUTES.devices.remove,
    call: async (w) => ({ url: `/api/authorizeddevices/id/${(await w.freshDevice()).id}` }),
  },
  {
    route: API_ROUTES.devices.signIns,
    call: () => ({ url: '/api/devicesignins' }),
  },

  // ---- participants ----
  { route: API_ROUTES.participants.list, call: () => ({ url: '/api/participant' }) },
  {
    route: API_ROUTES.participants.export,
    call: () => ({ url: '/api/participant/export?state=behind&sort=days_behind&order=desc' }),
  },
  {
    route: API_ROUTES.participants.get,
    call: (w) => ({ url: `/api/participant/${w.participantId}` }),
  },
  {
    route: API_ROUTES.participants.referral,
    call: (w) => ({ url: `/api/participant/${w.participantId}/referral` }),
  },
  {
    route: API_ROUTES.participants.create,
    call: async (w) => ({
      url: '/api/participant',
      payload: {
        first_name: 'Matrix',
        last_name: 'Person',
        gender: 'female',
        date_of_birth: '1961-02-03',
        email: 'matrix.person@example.org',
        phone_number: '+447700900999',
        address: '2 Matrix Road, Leeds',
        language: 'English',
        unique_device_id: (await w.freshDevice()).uuid,
        programme_referred_to: 'pad-programme',
        referring_organisation: 'Matrix Practice',
        referring_healthcare_professional: 'Dr Matrix',
        referring_healthcare_professional_role: 'GP',
        checked_contraindications_to_exercise: true,
        smoker: false,
        diabetes: false,
        registered_deaf: false,
      },
    }),
  },
  {
    route: API_ROUTES.participants.update,
    // Each caller sends what its role may change: the tablet only purge_cache, basic access no identifiable field.
    call: (w, caller) => ({
      url: `/api/participant/${w.participantId}`,
      payload: caller === 'device' ? { purge_cache: 'false' } : { language: 'English' },
    }),
  },
  {
    route: API_ROUTES.participants.remove,
    call: async (w) => ({ url: `/api/participant/${await w.freshParticipantId()}` }),
  },
  // Bulk referrals from CSV (issue 32): a dry run, so a call changes nothing.
  {
    route: API_ROUTES.participants.import,
    call: () => ({
      url: '/api/participant/import?dry_run=true',
      headers: { 'content-type': 'text/csv' },
      payload: [
        'first_name,last_name,date_of_birth,phone_number,address,language,programme_referred_to,referring_organisation,referring_healthcare_professional,referring_healthcare_professional_role,checked_contraindications_to_exercise,smoker,diabetes,registered_deaf',
        'Matrix,Import,1961-02-03,+447700900998,3 Matrix Road,English,pad-programme,Matrix Practice,Dr Matrix,GP,true,false,false,false',
      ].join('\r\n'),
    }),
  },
  // Discharge, re-referral, subject access, records review (issue 32)
  {
    route: API_ROUTES.participants.discharge,
    call: async (w) => ({
      url: `/api/participant/${await w.freshParticipantId()}/discharge`,
      payload: { outcome: 'completed' },
    }),
  },
  {
    route: API_ROUTES.participants.rerefer,
    // The seeded participant is active: refused with 409, let through.
    call: (w) => ({ url: `/api/participant/${w.participantId}/rerefer` }),
  },
  {
    route: API_ROUTES.participants.record,
    call: (w) => ({ url: `/api/participant/${w.participantId}/record` }),
  },
  {
    route: API_ROUTES.participants.transfer,
    call: async (w) => ({
      url: `/api/participant/${await w.freshParticipantId()}/transfer`,
      payload: { site_id: await w.freshSiteId() },
    }),
  },
  { route: API_ROUTES.records.due, call: () => ({ url: '/api/records/due' }) },
  {
    route: API_ROUTES.records.destroy,
    // The seeded participant is not due for review: refused with 409, nothing destroyed.
    call: (w) => ({ url: '/api/records/destroy', payload: { participant_ids: [w.participantId] } }),
  },
  {
    route: API_ROUTES.participants.message,
    call: (w) => ({
      url: '/api/pushNotifications',
      payload: { title: 'Hello', body: 'Time for today', uuid: w.deviceUuid },
    }),
  },
  {
    route: API_ROUTES.pushMessages.ofParticipant,
    call: (w) => ({ url: `/api/pushNotifications/participant/${w.participantId}` }),
  },
  { route: API_ROUTES.dashboard.get, call: () => ({ url: '/api/dashboard' }) },
  // Reports (issue 33): aggregates only, every signed-in admin.
  {
    route: API_ROUTES.reports.get,
    call: () => ({ url: '/api/reports/flow?from=2026-01-01&to=2026-03-31&by=week' }),
  },
  {
    route: API_ROUTES.reports.exportXlsx,
    call: () => ({ url: '/api/reports/export.xlsx?from=2026-01-01&to=2026-03-31&suppress_small=true' }),
  },
  // ---- follow-up worklist, contact log, message fates (issue 31) ----
  { route: API_ROUTES.followup.list, call: () => ({ url: '/api/followup?reason=behind' }) },
  { route: API_ROUTES.followup.counts, call: () => ({ url: '/api/followup/counts' }) },
  {
    route: API_ROUTES.followup.contacts,
    call: (w) => ({ url: `/api/participant/${w.participantId}/contacts` }),
  },
  {
    route: API_ROUTES.followup.recordContact,
    call: (w) => ({
      url: `/api/participant/${w.participantId}/contacts`,
      payload: { method: 'phone', outcome: 'no_answer', note: 'Matrix note' },
    }),
  },
  {
    route: API_ROUTES.followup.messages,
    call: (w) => ({ url: `/api/participant/${w.participantId}/messages` }),
  },

  // ---- outcome measures, schedules and results ----
  { route: API_ROUTES.outcomes.measures, call: () => ({ url: '/api/measures' }) },
  {
    route: API_ROUTES.outcomes.createMeasure,
    call: () => ({
      url: '/api/measures',
      payload: {
        code: `M${Math.random().toString(36).slice(2, 10)}`,
        name: 'Matrix measure',
        kind: 'numeric',
        unit: 'm',
        min: 0,
        max: 100,
        higher_is_better: true,
      },
    }),
  },
  {
    route: API_ROUTES.outcomes.updateMeasure,
    call: async (w) => ({
      url: `/api/measures/${await w.freshMeasureId()}`,
      payload: { name: 'Renamed measure' },
    }),
  },
  { route: API_ROUTES.outcomes.schedule, call: (w) => ({ url: `/api/videoset/${w.setId}/assessments` }) },
  {
    route: API_ROUTES.outcomes.saveSchedule,
    call: (w) => ({
      url: `/api/videoset/${w.setId}/assessments`,
      payload: { timepoints: [{ timepoint: 'baseline', measures: ['6MWD'] }] },
    }),
  },
  {
    route: API_ROUTES.outcomes.results,
    call: (w) => ({ url: `/api/participant/${w.participantId}/assessments` }),
  },
  {
    route: API_ROUTES.outcomes.record,
    call: (w) => ({
      url: `/api/participant/${w.participantId}/assessments`,
      payload: {
        timepoint: 'baseline',
        measure: '6MWD',
        taken_on: w.today,
        value: 300,
        note: 'Matrix note on a walk',
      },
    }),
  },
  {
    route: API_ROUTES.outcomes.amend,
    call: async (w) => ({
      url: `/api/participant/${w.participantId}/assessments/${await w.freshAssessmentId()}/amend`,
      payload: { value: 301, reason: 'Matrix correction' },
    }),
  },
  {
    route: API_ROUTES.outcomes.ofParticipant,
    call: (w) => ({ url: `/api/participant/${w.participantId}/outcomes` }),
  },
  { route: API_ROUTES.outcomes.fhir, call: (w) => ({ url: `/api/participant/${w.participantId}/fhir` }) },
  {
    route: API_ROUTES.reports.outcomes,
    call: () => ({ url: '/api/reports/outcomes?from=2026-01-01&to=2026-03-31&measure=6MWD' }),
  },

  // ---- video sets and videos ----
  { route: API_ROUTES.videoSets.list, call: () => ({ url: '/api/videoset' }) },
  {
    route: API_ROUTES.videoSets.create,
    call: () => ({
      url: '/api/videoset',
      payload: { set_name: 'Matrix set', number_of_weeks: 1, videos_in_week: 1 },
    }),
  },
  { route: API_ROUTES.videoSets.get, call: (w) => ({ url: `/api/videoset/${w.setId}` }) },
  {
    route: API_ROUTES.videoSets.rename,
    call: (w) => ({ url: `/api/videoset/${w.setId}`, payload: { set_name: 'Renamed set' } }),
  },
  {
    route: API_ROUTES.videoSets.remove,
    call: async (w) => ({ url: `/api/videoset/${await w.freshSetId()}` }),
  },
  {
    route: API_ROUTES.videoSets.deletionImpact,
    call: (w) => ({ url: `/api/videoset/${w.setId}/deletion-impact` }),
  },
  {
    route: API_ROUTES.videoSets.videos,
    call: (w) => ({ url: `/api/videoset/${w.setId}/videos` }),
  },
  {
    route: API_ROUTES.videos.uploadSettings,
    call: () => ({ url: '/api/video/upload-settings' }),
  },
  {
    route: API_ROUTES.videos.thumbsOfSet,
    call: (w) => ({ url: `/api/video/thumbs/${w.setId}` }),
  },
  {
    route: API_ROUTES.videos.get,
    call: (w) => ({ url: `/api/video/${w.videoId}` }),
  },
  {
    route: API_ROUTES.videos.update,
    call: (w) => ({ url: `/api/video/${w.videoId}`, payload: { title: 'Renamed video' } }),
  },
  {
    route: API_ROUTES.videos.deletionImpact,
    call: (w) => ({ url: `/api/video/${w.videoId}/deletion-impact` }),
  },
  {
    route: API_ROUTES.videos.remove,
    call: async (w) => ({ url: `/api/video/${await w.freshVideoId()}` }),
  },
  {
    route: API_ROUTES.videos.create,
    call: async (w) => ({
      url: '/api/video',
      payload: {
        title: 'Matrix video',
        description: 'Matrix',
        file_location_path: w.videoLocation,
        fitness_video_set_id: await w.freshSetId(),
        week_number: 1,
        day_number: 1,
      },
    }),
  },
  {
    route: API_ROUTES.videos.reextractThumbnail,
    call: (w) => ({
      url: '/api/video/thumbs/reextract',
      payload: { video_id: w.videoId, file_location_path: w.videoLocation },
    }),
  },
  { route: API_ROUTES.videos.requestThumbnail, call: (w) => ({ url: `/thumbs?videoId=${w.videoId}` }) },

  // ---- uploads (tus) and media ----
  {
    method: 'POST',
    url: '/companion',
    who: STAFF,
    call: () => ({ url: '/companion', headers: { ...TUS, 'upload-length': '1000' } }),
  },
  {
    method: 'PATCH',
    url: '/companion/:uploadId',
    who: STAFF,
    call: () => ({
      url: `/companion/${'0'.repeat(32)}`,
      headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.from('x'),
    }),
  },
  {
    method: 'HEAD',
    url: '/companion/:uploadId',
    who: STAFF,
    call: () => ({ url: `/companion/${'0'.repeat(32)}`, headers: TUS }),
  },
  {
    method: 'DELETE',
    url: '/companion/:uploadId',
    who: STAFF,
    call: () => ({ url: `/companion/${'0'.repeat(32)}`, headers: TUS }),
  },
  {
    method: 'GET',
    url: '/companion/:uploadId',
    who: STAFF,
    call: () => ({ url: `/companion/${'0'.repeat(32)}` }),
  },
  {
    method: 'GET',
    url: '/media/*',
    who: ANYONE,
    call: (w) => ({ url: `/media/${w.videoLocation.replace(/^.*\/media\//, '')}` }),
  },

  // ---- progress (console) ----
  {
    route: API_ROUTES.progress.ofParticipant,
    call: (w) => ({ url: `/api/participationprogress/participant/${w.participantId}` }),
  },
  {
    route: API_ROUTES.progress.summary,
    call: (w) => ({ url: `/api/participationprogress/summary/${w.setId}/participant/${w.participantId}` }),
  },
  {
    route: API_ROUTES.progress.create,
    call: async (w) => ({
      url: '/api/participationprogress',
      payload: { participant_id: await w.freshParticipantId(), fitness_video_set_id: w.setId },
    }),
  },
  {
    route: API_ROUTES.progress.update,
    call: (w) => ({ url: `/api/participationprogress/${w.progressId}`, payload: { video_stopped_at: '12' } }),
  },
  {
    route: API_ROUTES.progress.moveForward,
    call: (w) => ({
      url: `/api/video/progress/forward/${w.participantId}`,
      payload: { week: '1', day: '2' },
    }),
  },
  {
    route: API_ROUTES.progress.moveBackward,
    call: (w) => ({
      url: `/api/video/progress/backward/${w.participantId}`,
      payload: { week: '1', day: '1' },
    }),
  },
  {
    route: API_ROUTES.progress.forwardOneDay,
    call: (w) => ({ url: `/api/participant/${w.participantId}/progress`, payload: {} }),
  },

  // ---- the tablet app (device API) ----
  {
    route: deviceApi.register,
    call: (w) => ({ url: `/uuid/${w.otherDeviceUuid}` }),
  },
  {
    route: deviceApi.savePushToken,
    call: (w) => ({
      url: `/uuid/${w.otherDeviceUuid}`,
      payload: { push_notification_id: 'fcm-token-from-the-matrix' },
    }),
  },
  {
    route: deviceApi.todaysVideos,
    call: (w) => ({ url: `/api/videoset/today/${w.setId}/participant/${w.participantId}` }),
  },
  {
    route: deviceApi.progress,
    call: (w) => ({ url: `/api/participationprogress/${w.progressId}` }),
  },
  {
    route: deviceApi.summary,
    call: (w) => ({ url: `/api/summary/${w.setId}/participant/${w.participantId}` }),
  },
  {
    route: deviceApi.reportViews,
    call: (w) => ({
      url: `/api/videoset/view/${w.setId}/participant/${w.participantId}`,
      payload: { day: '1', week: '1', videoIds: [w.videoId] },
    }),
  },
];

/** What a table route declares: its entry's access and permission. */
function declaredBy(entry: RouteDeclaration): Declared {
  return entry.access === 'staff'
    ? { access: 'staff', permission: entry.permission }
    : { access: entry.access };
}

export const AUTHORIZATION_MATRIX: MatrixRow[] = ROWS.map((row) => {
  const { call, onlyWithConsoleBuild, endsSession } = row;
  const [method, url, declared] =
    'route' in row
      ? [row.route.method, row.route.path, declaredBy(row.route)]
      : [row.method, row.url, row.who];
  return { method, url, call, onlyWithConsoleBuild, endsSession, declared, who: expectedFor(declared) };
});

/** The row that governs a route of the app; a HEAD route follows the GET row of its URL. */
export function rowFor(method: string, url: string): MatrixRow | undefined {
  const lookup = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
  for (const m of lookup) {
    const row = AUTHORIZATION_MATRIX.find((r) => r.method === m && r.url === url);
    if (row) return row;
  }
  return undefined;
}
