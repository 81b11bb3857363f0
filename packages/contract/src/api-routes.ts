/**
 * Method and path of every staff-console route, without their schemas: what the console needs at
 * run time to call a route. The entries with their schemas (endpoints.ts) are made from these, and
 * `apiRoutes` (api-route-refs.ts) gives the console these objects typed by those entries, so the
 * console's pages call the API without loading zod or a single schema (issue 14's bundle budget).
 */
import { SESSION_ROUTES } from './session-routes.js';

export const API_ROUTES = {
  auth: {
    ...SESSION_ROUTES,
    changeOwnPassword: { method: 'POST', path: '/api/account/password' },
    stepUp: { method: 'POST', path: '/api/session/step-up' },
  },
  lockouts: {
    list: { method: 'GET', path: '/api/lockouts' },
    lift: { method: 'DELETE', path: '/api/lockouts/:user_name' },
  },
  admins: {
    list: { method: 'GET', path: '/api/admin' },
    create: { method: 'POST', path: '/api/admin' },
    update: { method: 'PATCH', path: '/api/admin/:user_name' },
    remove: { method: 'DELETE', path: '/api/admin/:user_name' },
    resetAuthenticator: { method: 'POST', path: '/api/admin/:user_name/reset-authenticator' },
    resetPassword: { method: 'POST', path: '/api/admin/:user_name/reset-password' },
  },
  logs: {
    list: { method: 'GET', path: '/api/logs/getloglist' },
    read: { method: 'GET', path: '/api/logs/download/:fileName' },
  },
  devices: {
    list: { method: 'GET', path: '/api/authorizeddevices' },
    signIns: { method: 'GET', path: '/api/devicesignins' },
    available: { method: 'GET', path: '/api/authorizeddevices/available' },
    byUuid: { method: 'GET', path: '/api/authorizeddevices/:uuid' },
    create: { method: 'POST', path: '/api/authorizeddevices' },
    update: { method: 'PATCH', path: '/api/authorizeddevices/id/:id' },
    remove: { method: 'DELETE', path: '/api/authorizeddevices/id/:id' },
  },
  participants: {
    list: { method: 'GET', path: '/api/participant' },
    export: { method: 'GET', path: '/api/participant/export' },
    get: { method: 'GET', path: '/api/participant/:id' },
    referral: { method: 'GET', path: '/api/participant/:id/referral' },
    create: { method: 'POST', path: '/api/participant' },
    update: { method: 'PATCH', path: '/api/participant/:id' },
    remove: { method: 'DELETE', path: '/api/participant/:id' },
    message: { method: 'POST', path: '/api/pushNotifications' },
    discharge: { method: 'POST', path: '/api/participant/:id/discharge' },
    rerefer: { method: 'POST', path: '/api/participant/:id/rerefer' },
    record: { method: 'GET', path: '/api/participant/:id/record' },
  },
  records: {
    due: { method: 'GET', path: '/api/records/due' },
    destroy: { method: 'POST', path: '/api/records/destroy' },
  },
  pushMessages: {
    ofParticipant: { method: 'GET', path: '/api/pushNotifications/participant/:id' },
  },
  progress: {
    ofParticipant: { method: 'GET', path: '/api/participationprogress/participant/:id' },
    summary: {
      method: 'GET',
      path: '/api/participationprogress/summary/:videoSetId/participant/:participantId',
    },
    create: { method: 'POST', path: '/api/participationprogress' },
    update: { method: 'PATCH', path: '/api/participationprogress/:id' },
    moveForward: { method: 'POST', path: '/api/video/progress/forward/:id' },
    moveBackward: { method: 'POST', path: '/api/video/progress/backward/:id' },
    forwardOneDay: { method: 'PATCH', path: '/api/participant/:id/progress' },
  },
  videoSets: {
    list: { method: 'GET', path: '/api/videoset' },
    create: { method: 'POST', path: '/api/videoset' },
    get: { method: 'GET', path: '/api/videoset/:id' },
    rename: { method: 'PATCH', path: '/api/videoset/:id' },
    deletionImpact: { method: 'GET', path: '/api/videoset/:id/deletion-impact' },
    remove: { method: 'DELETE', path: '/api/videoset/:id' },
    videos: { method: 'GET', path: '/api/videoset/:id/videos' },
  },
  videos: {
    uploadSettings: { method: 'GET', path: '/api/video/upload-settings' },
    thumbsOfSet: { method: 'GET', path: '/api/video/thumbs/:videoSetId' },
    get: { method: 'GET', path: '/api/video/:video_id' },
    create: { method: 'POST', path: '/api/video' },
    update: { method: 'PATCH', path: '/api/video/:video_id' },
    deletionImpact: { method: 'GET', path: '/api/video/:video_id/deletion-impact' },
    remove: { method: 'DELETE', path: '/api/video/:video_id' },
    reextractThumbnail: { method: 'POST', path: '/api/video/thumbs/reextract' },
    requestThumbnail: { method: 'GET', path: '/thumbs' },
  },
  audit: {
    list: { method: 'GET', path: '/api/audit' },
    export: { method: 'GET', path: '/api/audit/export' },
  },
  dashboard: {
    get: { method: 'GET', path: '/api/dashboard' },
  },
  retention: {
    policy: { method: 'GET', path: '/api/retention' },
  },
} as const;
