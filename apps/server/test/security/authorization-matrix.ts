/**
 * The authorization matrix: every route of the app, written by hand, with the access it must
 * declare. The test (authorization.test.ts) lists the routes the app really has and fails on a
 * route missing here, a row naming a route that no longer exists, or a route declaring other
 * access than its row says; then calls every route as every kind of caller. What each caller must
 * get follows from the row's declaration and the contract's permission table (`can()`), so changing
 * who may call a route means changing this table or that one, in review.
 *
 * A HEAD route follows the GET row of the same URL (Fastify adds one beside every GET).
 */
import { BASIC_ACCESS, FULL_ACCESS, can, type Permission, type Role } from '@pathway/contract';

/** The signed-in callers, one per role (a new role adds one here and its session in world.ts). */
export const CALLER_ROLES = { basic: BASIC_ACCESS, full: FULL_ACCESS } as const satisfies Record<
  string,
  Role
>;
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

/** Anyone at all: the console's files, sign-in, health, media capability URLs, the tablet's first calls. */
const ANYONE: Declared = { access: 'public' };
/** Any signed-in admin, whatever their role. */
const STAFF: Declared = { access: 'staff' };
/** Signed-in admins whose role has the permission. */
const needs = (permission: Permission): Declared => ({ access: 'staff', permission });
/** The tablet app with the bearer token of an assigned device. */
const DEVICE: Declared = { access: 'device' };
/** A path the console and the tablet share. */
const STAFF_OR_DEVICE: Declared = { access: 'staff-or-device' };

/** What each caller gets from a route declaring this. */
export function expectedFor(declared: Declared): Expected {
  const asStaff = (role: Role): Outcome => {
    switch (declared.access) {
      case 'public':
      case 'staff-or-device':
        return 'ok';
      case 'device':
        return 401;
      case 'staff':
        return declared.permission === undefined || can(role, declared.permission) ? 'ok' : 403;
    }
  };
  const staffCallers = Object.entries(CALLER_ROLES).map(([caller, role]) => [caller, asStaff(role)]);
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
  /** Rows a destructive or creating call may consume, one per call. */
  freshParticipantId(): Promise<number>;
  freshDevice(): Promise<{ id: number; uuid: string }>;
  freshSetId(): Promise<number>;
  freshVideoId(): Promise<number>;
  freshAdminUserName(): Promise<string>;
  freshUuid(): string;
  /** Credentials for a real sign-in (a new admin and a current TOTP code each time). */
  freshLogin(): Promise<Record<string, string>>;
}

export interface Call {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

interface RowDeclaration {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  /** The access the route must declare. */
  who: Declared;
  /** A request the route would accept from an allowed caller, so access is what is tested. */
  call: (w: World, caller: Caller) => Promise<Call> | Call;
  /** The route exists only when the console is built (apps/web/dist), as in CI and production. */
  onlyWithConsoleBuild?: boolean;
  /** The call ends the caller's session: it is made with a session of its own. */
  endsSession?: boolean;
}

export interface MatrixRow extends Omit<RowDeclaration, 'who'> {
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
    method: 'POST',
    url: '/login',
    who: ANYONE,
    call: async (w) => ({ url: '/login', payload: await w.freshLogin() }),
  },
  { method: 'POST', url: '/logout', who: ANYONE, endsSession: true, call: () => ({ url: '/logout' }) },
  { method: 'GET', url: '/api/session', who: STAFF, call: () => ({ url: '/api/session' }) },
  {
    method: 'POST',
    url: '/api/session/step-up',
    who: STAFF,
    // A wrong answer counts against the caller's user name like a sign-in: a session of its own.
    endsSession: true,
    call: () => ({
      url: '/api/session/step-up',
      payload: { password: 'not the password', mfa_token: '000000' },
    }),
  },
  {
    method: 'POST',
    url: '/api/account/password',
    who: STAFF,
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
  {
    method: 'GET',
    url: '/api/lockouts',
    who: needs('admins.manage'),
    call: () => ({ url: '/api/lockouts' }),
  },
  {
    method: 'DELETE',
    url: '/api/lockouts/:user_name',
    who: needs('admins.manage'),
    // No lock to lift: 404, which still shows the caller was let through.
    call: (w) => ({ url: `/api/lockouts/${encodeURIComponent(`nobody.${w.freshUuid()}`)}` }),
  },

  // ---- admin users, logs, audit ----
  { method: 'GET', url: '/api/admin', who: needs('admins.manage'), call: () => ({ url: '/api/admin' }) },
  {
    method: 'POST',
    url: '/api/admin',
    who: needs('admins.manage'),
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
    method: 'PATCH',
    url: '/api/admin/:user_name',
    who: needs('admins.manage'),
    call: async (w) => ({
      url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}`,
      payload: { first_name: 'Renamed' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/admin/:user_name',
    who: needs('admins.manage'),
    call: async (w) => ({ url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}` }),
  },
  {
    method: 'POST',
    url: '/api/admin/:user_name/reset-authenticator',
    who: needs('admins.manage'),
    call: async (w) => ({
      url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}/reset-authenticator`,
    }),
  },
  {
    method: 'POST',
    url: '/api/admin/:user_name/reset-password',
    who: needs('admins.manage'),
    call: async (w) => ({
      url: `/api/admin/${encodeURIComponent(await w.freshAdminUserName())}/reset-password`,
      payload: { new_password: 'a reset passphrase for matrix' },
    }),
  },
  {
    method: 'GET',
    url: '/api/logs/getloglist',
    who: needs('logs.read'),
    call: () => ({ url: '/api/logs/getloglist' }),
  },
  { method: 'GET', url: '/api/retention', who: needs('audit.read'), call: () => ({ url: '/api/retention' }) },
  {
    method: 'GET',
    url: '/api/logs/download/:fileName',
    who: needs('logs.read'),
    call: (w) => ({ url: `/api/logs/download/${w.logFileName}` }),
  },
  { method: 'GET', url: '/api/audit', who: needs('audit.read'), call: () => ({ url: '/api/audit' }) },
  {
    method: 'GET',
    url: '/api/audit/export',
    who: needs('audit.read'),
    call: () => ({ url: '/api/audit/export' }),
  },

  // ---- devices ----
  {
    method: 'GET',
    url: '/api/authorizeddevices',
    who: STAFF,
    call: () => ({ url: '/api/authorizeddevices' }),
  },
  {
    method: 'GET',
    url: '/api/authorizeddevices/available',
    who: STAFF,
    call: () => ({ url: '/api/authorizeddevices/available' }),
  },
  {
    method: 'GET',
    url: '/api/authorizeddevices/:uuid',
    who: STAFF,
    call: (w) => ({ url: `/api/authorizeddevices/${w.deviceUuid}` }),
  },
  {
    method: 'POST',
    url: '/api/authorizeddevices',
    who: STAFF,
    call: (w) => ({ url: '/api/authorizeddevices', payload: { name: 'Matrix tablet', uuid: w.freshUuid() } }),
  },
  {
    method: 'PATCH',
    url: '/api/authorizeddevices/id/:id',
    who: STAFF,
    call: async (w) => ({
      url: `/api/authorizeddevices/id/${(await w.freshDevice()).id}`,
      payload: { name: 'Renamed tablet' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/authorizeddevices/id/:id',
    who: STAFF,
    call: async (w) => ({ url: `/api/authorizeddevices/id/${(await w.freshDevice()).id}` }),
  },
  {
    method: 'GET',
    url: '/api/devicesignins',
    who: needs('devices.signins'),
    call: () => ({ url: '/api/devicesignins' }),
  },

  // ---- participants ----
  { method: 'GET', url: '/api/participant', who: STAFF, call: () => ({ url: '/api/participant' }) },
  {
    method: 'GET',
    url: '/api/participant/export',
    who: STAFF,
    call: () => ({ url: '/api/participant/export?state=behind&sort=days_behind&order=desc' }),
  },
  {
    method: 'GET',
    url: '/api/participant/:id',
    who: STAFF,
    call: (w) => ({ url: `/api/participant/${w.participantId}` }),
  },
  {
    method: 'GET',
    url: '/api/participant/:id/referral',
    who: needs('participants.identifiable'),
    call: (w) => ({ url: `/api/participant/${w.participantId}/referral` }),
  },
  {
    method: 'POST',
    url: '/api/participant',
    who: needs('participants.manage'),
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
    method: 'PATCH',
    url: '/api/participant/:id',
    who: STAFF_OR_DEVICE,
    // Each caller sends what its role may change: the tablet only purge_cache, basic access no identifiable field.
    call: (w, caller) => ({
      url: `/api/participant/${w.participantId}`,
      payload: caller === 'device' ? { purge_cache: 'false' } : { language: 'English' },
    }),
  },
  {
    method: 'DELETE',
    url: '/api/participant/:id',
    who: needs('participants.manage'),
    call: async (w) => ({ url: `/api/participant/${await w.freshParticipantId()}` }),
  },
  {
    method: 'POST',
    url: '/api/participant/:id/discharge',
    who: needs('participants.manage'),
    call: async (w) => ({
      url: `/api/participant/${await w.freshParticipantId()}/discharge`,
      payload: { outcome: 'completed' },
    }),
  },
  {
    method: 'POST',
    url: '/api/participant/:id/rerefer',
    who: needs('participants.manage'),
    // The seeded participant is active: refused with 409, let through.
    call: (w) => ({ url: `/api/participant/${w.participantId}/rerefer` }),
  },
  {
    method: 'GET',
    url: '/api/participant/:id/record',
    who: needs('records.manage'),
    call: (w) => ({ url: `/api/participant/${w.participantId}/record` }),
  },
  {
    method: 'GET',
    url: '/api/records/due',
    who: needs('records.manage'),
    call: () => ({ url: '/api/records/due' }),
  },
  {
    method: 'POST',
    url: '/api/records/destroy',
    who: needs('records.manage'),
    // The seeded participant is not due for review: refused with 409, nothing destroyed.
    call: (w) => ({ url: '/api/records/destroy', payload: { participant_ids: [w.participantId] } }),
  },
  {
    method: 'POST',
    url: '/api/pushNotifications',
    who: STAFF,
    call: (w) => ({
      url: '/api/pushNotifications',
      payload: { title: 'Hello', body: 'Time for today', uuid: w.deviceUuid },
    }),
  },
  {
    method: 'GET',
    url: '/api/pushNotifications/participant/:id',
    who: STAFF,
    call: (w) => ({ url: `/api/pushNotifications/participant/${w.participantId}` }),
  },
  { method: 'GET', url: '/api/dashboard', who: STAFF, call: () => ({ url: '/api/dashboard' }) },

  // ---- video sets and videos ----
  { method: 'GET', url: '/api/videoset', who: STAFF, call: () => ({ url: '/api/videoset' }) },
  {
    method: 'POST',
    url: '/api/videoset',
    who: STAFF,
    call: () => ({
      url: '/api/videoset',
      payload: { set_name: 'Matrix set', number_of_weeks: 1, videos_in_week: 1 },
    }),
  },
  { method: 'GET', url: '/api/videoset/:id', who: STAFF, call: (w) => ({ url: `/api/videoset/${w.setId}` }) },
  {
    method: 'PATCH',
    url: '/api/videoset/:id',
    who: STAFF,
    call: (w) => ({ url: `/api/videoset/${w.setId}`, payload: { set_name: 'Renamed set' } }),
  },
  {
    method: 'DELETE',
    url: '/api/videoset/:id',
    who: STAFF,
    call: async (w) => ({ url: `/api/videoset/${await w.freshSetId()}` }),
  },
  {
    method: 'GET',
    url: '/api/videoset/:id/deletion-impact',
    who: STAFF,
    call: (w) => ({ url: `/api/videoset/${w.setId}/deletion-impact` }),
  },
  {
    method: 'GET',
    url: '/api/videoset/:id/videos',
    who: STAFF,
    call: (w) => ({ url: `/api/videoset/${w.setId}/videos` }),
  },
  {
    method: 'GET',
    url: '/api/video/upload-settings',
    who: STAFF,
    call: () => ({ url: '/api/video/upload-settings' }),
  },
  {
    method: 'GET',
    url: '/api/video/thumbs/:videoSetId',
    who: STAFF_OR_DEVICE,
    call: (w) => ({ url: `/api/video/thumbs/${w.setId}` }),
  },
  {
    method: 'GET',
    url: '/api/video/:video_id',
    who: STAFF,
    call: (w) => ({ url: `/api/video/${w.videoId}` }),
  },
  {
    method: 'PATCH',
    url: '/api/video/:video_id',
    who: STAFF,
    call: (w) => ({ url: `/api/video/${w.videoId}`, payload: { title: 'Renamed video' } }),
  },
  {
    method: 'GET',
    url: '/api/video/:video_id/deletion-impact',
    who: STAFF,
    call: (w) => ({ url: `/api/video/${w.videoId}/deletion-impact` }),
  },
  {
    method: 'DELETE',
    url: '/api/video/:video_id',
    who: STAFF,
    call: async (w) => ({ url: `/api/video/${await w.freshVideoId()}` }),
  },
  {
    method: 'POST',
    url: '/api/video',
    who: STAFF,
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
    method: 'POST',
    url: '/api/video/thumbs/reextract',
    who: STAFF,
    call: (w) => ({
      url: '/api/video/thumbs/reextract',
      payload: { video_id: w.videoId, file_location_path: w.videoLocation },
    }),
  },
  { method: 'GET', url: '/thumbs', who: STAFF, call: (w) => ({ url: `/thumbs?videoId=${w.videoId}` }) },

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
    method: 'GET',
    url: '/api/participationprogress/participant/:id',
    who: STAFF,
    call: (w) => ({ url: `/api/participationprogress/participant/${w.participantId}` }),
  },
  {
    method: 'GET',
    url: '/api/participationprogress/summary/:videoSetId/participant/:participantId',
    who: STAFF,
    call: (w) => ({ url: `/api/participationprogress/summary/${w.setId}/participant/${w.participantId}` }),
  },
  {
    method: 'POST',
    url: '/api/participationprogress',
    who: STAFF,
    call: async (w) => ({
      url: '/api/participationprogress',
      payload: { participant_id: await w.freshParticipantId(), fitness_video_set_id: w.setId },
    }),
  },
  {
    method: 'PATCH',
    url: '/api/participationprogress/:id',
    who: STAFF,
    call: (w) => ({ url: `/api/participationprogress/${w.progressId}`, payload: { video_stopped_at: '12' } }),
  },
  {
    method: 'POST',
    url: '/api/video/progress/forward/:id',
    who: STAFF,
    call: (w) => ({
      url: `/api/video/progress/forward/${w.participantId}`,
      payload: { week: '1', day: '2' },
    }),
  },
  {
    method: 'POST',
    url: '/api/video/progress/backward/:id',
    who: STAFF,
    call: (w) => ({
      url: `/api/video/progress/backward/${w.participantId}`,
      payload: { week: '1', day: '1' },
    }),
  },
  {
    method: 'PATCH',
    url: '/api/participant/:id/progress',
    who: STAFF,
    call: (w) => ({ url: `/api/participant/${w.participantId}/progress`, payload: {} }),
  },

  // ---- the tablet app (device API) ----
  {
    method: 'GET',
    url: '/uuid/:deviceId',
    who: ANYONE,
    call: (w) => ({ url: `/uuid/${w.otherDeviceUuid}` }),
  },
  {
    method: 'PATCH',
    url: '/uuid/:deviceId',
    who: ANYONE,
    call: (w) => ({
      url: `/uuid/${w.otherDeviceUuid}`,
      payload: { push_notification_id: 'fcm-token-from-the-matrix' },
    }),
  },
  {
    method: 'GET',
    url: '/api/videoset/today/:videoSetId/participant/:participantId',
    who: DEVICE,
    call: (w) => ({ url: `/api/videoset/today/${w.setId}/participant/${w.participantId}` }),
  },
  {
    method: 'GET',
    url: '/api/participationprogress/:progressId',
    who: DEVICE,
    call: (w) => ({ url: `/api/participationprogress/${w.progressId}` }),
  },
  {
    method: 'GET',
    url: '/api/summary/:videoSetId/participant/:participantId',
    who: DEVICE,
    call: (w) => ({ url: `/api/summary/${w.setId}/participant/${w.participantId}` }),
  },
  {
    method: 'POST',
    url: '/api/videoset/view/:videoSetId/participant/:participantId',
    who: DEVICE,
    call: (w) => ({
      url: `/api/videoset/view/${w.setId}/participant/${w.participantId}`,
      payload: { day: '1', week: '1', videoIds: [w.videoId] },
    }),
  },
];

export const AUTHORIZATION_MATRIX: MatrixRow[] = ROWS.map((row) => ({
  ...row,
  declared: row.who,
  who: expectedFor(row.who),
}));

/** The row that governs a route of the app; a HEAD route follows the GET row of its URL. */
export function rowFor(method: string, url: string): MatrixRow | undefined {
  const lookup = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
  for (const m of lookup) {
    const row = AUTHORIZATION_MATRIX.find((r) => r.method === m && r.url === url);
    if (row) return row;
  }
  return undefined;
}
