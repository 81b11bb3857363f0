/**
 * Every staff-console route, declared once: its method, its path and who may call it (`access`,
 * and `permission` where not every signed-in admin may), without its schemas. The entries with
 * their schemas (endpoints.ts) are made from these; the server registers and guards each route
 * from its entry (`routeOf`, apps/server/src/lib/endpoint-route.ts); `apiRoutes`
 * (api-route-refs.ts) gives the console these objects typed by those entries, so the console's
 * pages call the API, and ask whether the signed-in role may call it (`canCall`), without loading
 * zod or a single schema (the sign-in route's bundle budget). Who may call a route changes here and nowhere
 * else.
 */
import type { RouteDeclaration } from './endpoint.js';
import { SESSION_ROUTES } from './session-routes.js';

export const API_ROUTES = {
  auth: {
    ...SESSION_ROUTES,
    changeOwnPassword: { method: 'POST', path: '/api/account/password', access: 'staff' },
    stepUp: { method: 'POST', path: '/api/session/step-up', access: 'staff' },
  },
  lockouts: {
    list: { method: 'GET', path: '/api/lockouts', access: 'staff', permission: 'admins.manage' },
    lift: {
      method: 'DELETE',
      path: '/api/lockouts/:user_name',
      access: 'staff',
      permission: 'admins.manage',
    },
  },
  admins: {
    list: { method: 'GET', path: '/api/admin', access: 'staff', permission: 'admins.manage' },
    create: { method: 'POST', path: '/api/admin', access: 'staff', permission: 'admins.manage' },
    update: { method: 'PATCH', path: '/api/admin/:user_name', access: 'staff', permission: 'admins.manage' },
    remove: { method: 'DELETE', path: '/api/admin/:user_name', access: 'staff', permission: 'admins.manage' },
    resetAuthenticator: {
      method: 'POST',
      path: '/api/admin/:user_name/reset-authenticator',
      access: 'staff',
      permission: 'admins.manage',
    },
    resetPassword: {
      method: 'POST',
      path: '/api/admin/:user_name/reset-password',
      access: 'staff',
      permission: 'admins.manage',
    },
  },
  // Organisations and their sites: every admin reads their own; a system administrator all, and changes them.
  organisations: {
    list: { method: 'GET', path: '/api/organisations', access: 'staff' },
    create: { method: 'POST', path: '/api/organisations', access: 'staff', permission: 'instance.manage' },
    update: {
      method: 'PATCH',
      path: '/api/organisations/:id',
      access: 'staff',
      permission: 'instance.manage',
    },
    sites: { method: 'GET', path: '/api/organisations/:id/sites', access: 'staff' },
    createSite: {
      method: 'POST',
      path: '/api/organisations/:id/sites',
      access: 'staff',
      permission: 'instance.manage',
    },
  },
  sites: {
    update: { method: 'PATCH', path: '/api/sites/:id', access: 'staff', permission: 'instance.manage' },
  },
  // Single sign-on (OpenID Connect): an organisation's provider settings, and the flow's own routes.
  sso: {
    get: { method: 'GET', path: '/api/organisations/:id/sso', access: 'staff', permission: 'sso.manage' },
    update: { method: 'PUT', path: '/api/organisations/:id/sso', access: 'staff', permission: 'sso.manage' },
    test: {
      method: 'POST',
      path: '/api/organisations/:id/sso/test',
      access: 'staff',
      permission: 'sso.manage',
    },
    start: { method: 'GET', path: '/api/sso/start', access: 'public' },
    callback: { method: 'GET', path: '/api/sso/callback', access: 'public' },
    backchannelLogout: { method: 'POST', path: '/api/sso/backchannel-logout', access: 'public' },
    jwks: { method: 'GET', path: '/api/sso/jwks.json', access: 'public' },
    stepUp: { method: 'GET', path: '/api/sso/step-up', access: 'staff' },
  },
  logs: {
    list: { method: 'GET', path: '/api/logs/getloglist', access: 'staff', permission: 'logs.read' },
    read: { method: 'GET', path: '/api/logs/download/:fileName', access: 'staff', permission: 'logs.read' },
  },
  devices: {
    list: { method: 'GET', path: '/api/authorizeddevices', access: 'staff' },
    signIns: { method: 'GET', path: '/api/devicesignins', access: 'staff', permission: 'devices.signins' },
    available: { method: 'GET', path: '/api/authorizeddevices/available', access: 'staff' },
    byUuid: { method: 'GET', path: '/api/authorizeddevices/:uuid', access: 'staff' },
    create: { method: 'POST', path: '/api/authorizeddevices', access: 'staff' },
    update: { method: 'PATCH', path: '/api/authorizeddevices/id/:id', access: 'staff' },
    remove: { method: 'DELETE', path: '/api/authorizeddevices/id/:id', access: 'staff' },
  },
  participants: {
    list: { method: 'GET', path: '/api/participant', access: 'staff' },
    export: { method: 'GET', path: '/api/participant/export', access: 'staff' },
    get: { method: 'GET', path: '/api/participant/:id', access: 'staff' },
    referral: {
      method: 'GET',
      path: '/api/participant/:id/referral',
      access: 'staff',
      permission: 'participants.identifiable',
    },
    create: { method: 'POST', path: '/api/participant', access: 'staff', permission: 'participants.manage' },
    update: { method: 'PATCH', path: '/api/participant/:id', access: 'staff-or-device' },
    remove: {
      method: 'DELETE',
      path: '/api/participant/:id',
      access: 'staff',
      permission: 'participants.manage',
    },
    message: { method: 'POST', path: '/api/pushNotifications', access: 'staff' },
    // Bulk referrals from CSV
    import: {
      method: 'POST',
      path: '/api/participant/import',
      access: 'staff',
      permission: 'participants.manage',
    },
    // Discharge, re-referral and subject access
    discharge: {
      method: 'POST',
      path: '/api/participant/:id/discharge',
      access: 'staff',
      permission: 'participants.manage',
    },
    rerefer: {
      method: 'POST',
      path: '/api/participant/:id/rerefer',
      access: 'staff',
      permission: 'participants.manage',
    },
    record: {
      method: 'GET',
      path: '/api/participant/:id/record',
      access: 'staff',
      permission: 'records.manage',
    },
    transfer: {
      method: 'POST',
      path: '/api/participant/:id/transfer',
      access: 'staff',
      permission: 'participants.manage',
    },
  },
  // Records due for review after the retention period
  records: {
    due: { method: 'GET', path: '/api/records/due', access: 'staff', permission: 'records.manage' },
    destroy: { method: 'POST', path: '/api/records/destroy', access: 'staff', permission: 'records.manage' },
  },
  pushMessages: {
    ofParticipant: { method: 'GET', path: '/api/pushNotifications/participant/:id', access: 'staff' },
  },
  // Follow-up worklist, contact log and every message's fate.
  followup: {
    list: { method: 'GET', path: '/api/followup', access: 'staff' },
    counts: { method: 'GET', path: '/api/followup/counts', access: 'staff' },
    contacts: { method: 'GET', path: '/api/participant/:id/contacts', access: 'staff' },
    recordContact: { method: 'POST', path: '/api/participant/:id/contacts', access: 'staff' },
    messages: { method: 'GET', path: '/api/participant/:id/messages', access: 'staff' },
  },
  progress: {
    ofParticipant: { method: 'GET', path: '/api/participationprogress/participant/:id', access: 'staff' },
    summary: {
      method: 'GET',
      path: '/api/participationprogress/summary/:videoSetId/participant/:participantId',
      access: 'staff',
    },
    create: { method: 'POST', path: '/api/participationprogress', access: 'staff' },
    update: { method: 'PATCH', path: '/api/participationprogress/:id', access: 'staff' },
    moveForward: { method: 'POST', path: '/api/video/progress/forward/:id', access: 'staff' },
    moveBackward: { method: 'POST', path: '/api/video/progress/backward/:id', access: 'staff' },
    forwardOneDay: { method: 'PATCH', path: '/api/participant/:id/progress', access: 'staff' },
  },
  videoSets: {
    list: { method: 'GET', path: '/api/videoset', access: 'staff' },
    create: { method: 'POST', path: '/api/videoset', access: 'staff' },
    get: { method: 'GET', path: '/api/videoset/:id', access: 'staff' },
    rename: { method: 'PATCH', path: '/api/videoset/:id', access: 'staff' },
    deletionImpact: { method: 'GET', path: '/api/videoset/:id/deletion-impact', access: 'staff' },
    remove: { method: 'DELETE', path: '/api/videoset/:id', access: 'staff' },
    videos: { method: 'GET', path: '/api/videoset/:id/videos', access: 'staff' },
  },
  videos: {
    uploadSettings: { method: 'GET', path: '/api/video/upload-settings', access: 'staff' },
    thumbsOfSet: { method: 'GET', path: '/api/video/thumbs/:videoSetId', access: 'staff-or-device' },
    get: { method: 'GET', path: '/api/video/:video_id', access: 'staff' },
    create: { method: 'POST', path: '/api/video', access: 'staff' },
    update: { method: 'PATCH', path: '/api/video/:video_id', access: 'staff' },
    deletionImpact: { method: 'GET', path: '/api/video/:video_id/deletion-impact', access: 'staff' },
    remove: { method: 'DELETE', path: '/api/video/:video_id', access: 'staff' },
    reextractThumbnail: { method: 'POST', path: '/api/video/thumbs/reextract', access: 'staff' },
    requestThumbnail: { method: 'GET', path: '/thumbs', access: 'staff' },
  },
  audit: {
    list: { method: 'GET', path: '/api/audit', access: 'staff', permission: 'audit.read' },
    export: { method: 'GET', path: '/api/audit/export', access: 'staff', permission: 'audit.read' },
  },
  dashboard: {
    get: { method: 'GET', path: '/api/dashboard', access: 'staff' },
  },
  // Outcome measures, each set's assessment schedule, and the results recorded against them.
  outcomes: {
    measures: { method: 'GET', path: '/api/measures', access: 'staff' },
    createMeasure: { method: 'POST', path: '/api/measures', access: 'staff', permission: 'outcomes.manage' },
    updateMeasure: {
      method: 'PATCH',
      path: '/api/measures/:id',
      access: 'staff',
      permission: 'outcomes.manage',
    },
    schedule: { method: 'GET', path: '/api/videoset/:id/assessments', access: 'staff' },
    saveSchedule: {
      method: 'PUT',
      path: '/api/videoset/:id/assessments',
      access: 'staff',
      permission: 'outcomes.manage',
    },
    results: { method: 'GET', path: '/api/participant/:id/assessments', access: 'staff' },
    record: { method: 'POST', path: '/api/participant/:id/assessments', access: 'staff' },
    amend: {
      method: 'POST',
      path: '/api/participant/:id/assessments/:assessment_id/amend',
      access: 'staff',
    },
    ofParticipant: { method: 'GET', path: '/api/participant/:id/outcomes', access: 'staff' },
    fhir: {
      method: 'GET',
      path: '/api/participant/:id/fhir',
      access: 'staff',
      permission: 'participants.identifiable',
    },
  },
  // Reports: the fixed paths (the export, outcomes) are matched before the report's name.
  reports: {
    exportXlsx: { method: 'GET', path: '/api/reports/export.xlsx', access: 'staff' },
    outcomes: { method: 'GET', path: '/api/reports/outcomes', access: 'staff' },
    get: { method: 'GET', path: '/api/reports/:name', access: 'staff' },
  },
  retention: {
    policy: { method: 'GET', path: '/api/retention', access: 'staff', permission: 'audit.read' },
  },
} as const satisfies Record<string, Record<string, RouteDeclaration>>;
