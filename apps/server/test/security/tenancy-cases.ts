/**
 * For every route of the contract's table, the request an admin of organisation A (or of site A1
 * alone, or a tablet of A1) makes with another place's records: the ids of organisation B's (or
 * site A2's) participant, device, programme, set, video, contact or admin. The test
 * (tenancy.test.ts) makes each one as each caller and expects a 404, or an answer holding none of
 * the other place's names, contact data, notes, uuids or ids, and every record of the other place
 * as it was. A route of the table without a case here fails the test: a new route says how it
 * keeps organisations and sites apart before it ships.
 */
import { z } from 'zod';
import { API_ROUTES, api, deviceApi, type Endpoint, type RouteDeclaration } from '@pathway/contract';
import type { Place, TenancyWorld } from './tenancy-world.js';

export interface Call {
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

export type TenancyCase =
  | {
      /** The request, naming `other`'s records (or none, for a list: its answer is searched). */
      call: (other: Place, world: TenancyWorld) => Call;
      /** A tablet's route: called with A1's tablet token rather than a staff session. */
      asDevice?: true;
    }
  | {
      /** Why the route cannot name another place's records at all (said in the test's output). */
      exempt: string;
    };

type Entry = [RouteDeclaration, TenancyCase];

const participantBody = (uuid: string, extra: object = {}) => ({
  first_name: 'Tenancy',
  last_name: 'Person',
  date_of_birth: '1961-02-03',
  phone_number: '+447700900997',
  address: '4 Tenancy Road',
  language: 'English',
  unique_device_id: uuid,
  programme_referred_to: 'pad-programme',
  referring_organisation: 'Tenancy Practice',
  referring_healthcare_professional: 'Dr Tenancy',
  referring_healthcare_professional_role: 'GP',
  checked_contraindications_to_exercise: true,
  smoker: false,
  diabetes: false,
  registered_deaf: false,
  ...extra,
});

const ENTRIES: Entry[] = [
  // ---- signing in and out: about the caller alone ----
  [API_ROUTES.auth.login, { exempt: 'signs in with credentials: names no record of any place' }],
  [API_ROUTES.auth.logout, { exempt: "ends the caller's own session" }],
  [API_ROUTES.auth.session, { call: () => ({ url: '/api/session' }) }],
  [API_ROUTES.auth.stepUp, { exempt: "proves the caller's own password and code" }],
  [API_ROUTES.auth.changeOwnPassword, { exempt: "changes the caller's own password" }],
  [API_ROUTES.lockouts.list, { call: () => ({ url: '/api/lockouts' }) }],
  [
    API_ROUTES.lockouts.lift,
    { call: (other) => ({ url: `/api/lockouts/${encodeURIComponent(other.adminUserName)}` }) },
  ],

  // ---- admin users, organisations, sites ----
  [API_ROUTES.admins.list, { call: () => ({ url: '/api/admin' }) }],
  [
    API_ROUTES.admins.create,
    {
      call: (other) => ({
        url: '/api/admin',
        payload: {
          user_name: `tenancy.${other.adminUserId}@example.org`,
          password: 'a long tenancy passphrase here',
          organisation_id: other.organisationId,
          site_ids: [other.siteId],
        },
      }),
    },
  ],
  [
    API_ROUTES.admins.update,
    {
      call: (other) => ({
        url: `/api/admin/${encodeURIComponent(other.adminUserName)}`,
        payload: { first_name: 'Taken over' },
      }),
    },
  ],
  [
    API_ROUTES.admins.remove,
    { call: (other) => ({ url: `/api/admin/${encodeURIComponent(other.adminUserName)}` }) },
  ],
  [
    API_ROUTES.admins.resetAuthenticator,
    {
      call: (other) => ({ url: `/api/admin/${encodeURIComponent(other.adminUserName)}/reset-authenticator` }),
    },
  ],
  [
    API_ROUTES.admins.resetPassword,
    {
      call: (other) => ({
        url: `/api/admin/${encodeURIComponent(other.adminUserName)}/reset-password`,
        payload: { new_password: 'another tenancy passphrase' },
      }),
    },
  ],
  [API_ROUTES.organisations.list, { call: () => ({ url: '/api/organisations' }) }],
  [
    API_ROUTES.organisations.create,
    { call: () => ({ url: '/api/organisations', payload: { name: 'Tenancy Trust', ods_code: 'TEN' } }) },
  ],
  [
    API_ROUTES.organisations.update,
    {
      call: (other) => ({ url: `/api/organisations/${other.organisationId}`, payload: { name: 'Mine now' } }),
    },
  ],
  [
    API_ROUTES.organisations.sites,
    { call: (other) => ({ url: `/api/organisations/${other.organisationId}/sites` }) },
  ],
  [
    API_ROUTES.organisations.createSite,
    {
      call: (other) => ({
        url: `/api/organisations/${other.organisationId}/sites`,
        payload: { name: 'Annexe' },
      }),
    },
  ],
  [
    API_ROUTES.sites.update,
    { call: (other) => ({ url: `/api/sites/${other.siteId}`, payload: { name: 'Mine' } }) },
  ],
  [API_ROUTES.logs.list, { call: () => ({ url: '/api/logs/getloglist' }) }],
  [
    API_ROUTES.logs.read,
    { exempt: "the server's log files are the instance's, read by system administrators alone" },
  ],
  [API_ROUTES.retention.policy, { call: () => ({ url: '/api/retention' }) }],
  [API_ROUTES.audit.list, { call: () => ({ url: '/api/audit?perPage=500' }) }],
  [API_ROUTES.audit.export, { call: () => ({ url: '/api/audit/export' }) }],

  // ---- devices ----
  [API_ROUTES.devices.list, { call: () => ({ url: '/api/authorizeddevices' }) }],
  [API_ROUTES.devices.available, { call: () => ({ url: '/api/authorizeddevices/available' }) }],
  [API_ROUTES.devices.byUuid, { call: (other) => ({ url: `/api/authorizeddevices/${other.deviceUuid}` }) }],
  [
    API_ROUTES.devices.create,
    // Its uuid is the other's device's: refused as taken (a device id is not a secret), nothing of it said.
    {
      call: (other) => ({ url: '/api/authorizeddevices', payload: { name: 'Copy', uuid: other.deviceUuid } }),
    },
  ],
  [
    API_ROUTES.devices.update,
    {
      call: (other) => ({
        url: `/api/authorizeddevices/id/${other.deviceId}`,
        payload: { name: 'Mine now' },
      }),
    },
  ],
  [API_ROUTES.devices.remove, { call: (other) => ({ url: `/api/authorizeddevices/id/${other.deviceId}` }) }],
  [API_ROUTES.devices.signIns, { call: () => ({ url: '/api/devicesignins?perPage=500' }) }],

  // ---- participants ----
  [API_ROUTES.participants.list, { call: () => ({ url: '/api/participant?perPage=100&status=all' }) }],
  [API_ROUTES.participants.export, { call: () => ({ url: '/api/participant/export?status=all' }) }],
  [API_ROUTES.participants.get, { call: (other) => ({ url: `/api/participant/${other.participantId}` }) }],
  [
    API_ROUTES.participants.referral,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/referral` }) },
  ],
  [
    API_ROUTES.participants.create,
    // The other place's site and device.
    {
      call: (other) => ({
        url: '/api/participant',
        payload: participantBody(other.deviceUuid, { site_id: other.siteId }),
      }),
    },
  ],
  [
    API_ROUTES.participants.update,
    {
      call: (other) => ({
        url: `/api/participant/${other.participantId}`,
        payload: { first_name: 'Changed' },
      }),
    },
  ],
  [API_ROUTES.participants.remove, { call: (other) => ({ url: `/api/participant/${other.participantId}` }) }],
  [
    API_ROUTES.participants.message,
    {
      call: (other) => ({
        url: '/api/pushNotifications',
        payload: { title: 'Tenancy', body: 'A message', participant_id: other.participantId },
      }),
    },
  ],
  [
    API_ROUTES.participants.import,
    {
      call: (other) => ({
        url: `/api/participant/import?dry_run=true&site_id=${other.siteId}`,
        headers: { 'content-type': 'text/csv' },
        payload: [
          'first_name,last_name,date_of_birth,phone_number,address,language,programme_referred_to,referring_organisation,referring_healthcare_professional,referring_healthcare_professional_role,checked_contraindications_to_exercise,smoker,diabetes,registered_deaf',
          'Tenancy,Import,1961-02-03,+447700900996,5 Tenancy Road,English,pad-programme,Tenancy Practice,Dr Tenancy,GP,true,false,false,false',
        ].join('\r\n'),
      }),
    },
  ],
  [
    API_ROUTES.participants.discharge,
    {
      call: (other) => ({
        url: `/api/participant/${other.participantId}/discharge`,
        payload: { outcome: 'completed' },
      }),
    },
  ],
  [
    API_ROUTES.participants.rerefer,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/rerefer` }) },
  ],
  [
    API_ROUTES.participants.record,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/record` }) },
  ],
  [
    API_ROUTES.participants.transfer,
    {
      // The caller's own participant to the other place's site, and the other's participant to the caller's site.
      call: (other, world) => ({
        url: `/api/participant/${world.orgA.place.participantId}/transfer`,
        payload: { site_id: other.siteId },
      }),
    },
  ],
  [API_ROUTES.records.due, { call: () => ({ url: '/api/records/due' }) }],
  [
    API_ROUTES.records.destroy,
    {
      call: (other) => ({ url: '/api/records/destroy', payload: { participant_ids: [other.participantId] } }),
    },
  ],
  [
    API_ROUTES.pushMessages.ofParticipant,
    { call: (other) => ({ url: `/api/pushNotifications/participant/${other.participantId}` }) },
  ],

  // ---- follow-up ----
  [API_ROUTES.followup.list, { call: () => ({ url: '/api/followup?perPage=500' }) }],
  [API_ROUTES.followup.counts, { call: () => ({ url: '/api/followup/counts' }) }],
  [
    API_ROUTES.followup.contacts,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/contacts` }) },
  ],
  [
    API_ROUTES.followup.recordContact,
    {
      call: (other) => ({
        url: `/api/participant/${other.participantId}/contacts`,
        payload: { method: 'phone', outcome: 'reached', note: 'Tenancy note' },
      }),
    },
  ],
  [
    API_ROUTES.followup.messages,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/messages` }) },
  ],

  // ---- progress ----
  [
    API_ROUTES.progress.ofParticipant,
    { call: (other) => ({ url: `/api/participationprogress/participant/${other.participantId}` }) },
  ],
  [
    API_ROUTES.progress.summary,
    {
      call: (other) => ({
        url: `/api/participationprogress/summary/${other.setId}/participant/${other.participantId}`,
      }),
    },
  ],
  [
    API_ROUTES.progress.create,
    {
      call: (other) => ({
        url: '/api/participationprogress',
        payload: { participant_id: other.participantId, fitness_video_set_id: other.setId },
      }),
    },
  ],
  [
    API_ROUTES.progress.update,
    {
      call: (other) => ({
        url: `/api/participationprogress/${other.progressId}`,
        payload: { video_stopped_at: '99' },
      }),
    },
  ],
  [
    API_ROUTES.progress.moveForward,
    {
      call: (other) => ({
        url: `/api/video/progress/forward/${other.participantId}`,
        payload: { week: '1', day: '2' },
      }),
    },
  ],
  [
    API_ROUTES.progress.moveBackward,
    {
      call: (other) => ({
        url: `/api/video/progress/backward/${other.participantId}`,
        payload: { week: '1', day: '1' },
      }),
    },
  ],
  [
    API_ROUTES.progress.forwardOneDay,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/progress`, payload: {} }) },
  ],

  // ---- video sets and videos ----
  // ---- single sign-on ----
  [API_ROUTES.sso.get, { call: (other) => ({ url: `/api/organisations/${other.organisationId}/sso` }) }],
  [
    API_ROUTES.sso.update,
    {
      call: (other) => ({
        url: `/api/organisations/${other.organisationId}/sso`,
        payload: { enabled: false },
      }),
    },
  ],
  [
    API_ROUTES.sso.test,
    { call: (other) => ({ url: `/api/organisations/${other.organisationId}/sso/test`, payload: {} }) },
  ],
  [API_ROUTES.sso.start, { exempt: 'starts a sign-in before anyone is known: names no record of any place' }],
  [API_ROUTES.sso.callback, { exempt: "finishes the caller's own sign-in, by the provider's answer" }],
  [API_ROUTES.sso.backchannelLogout, { exempt: 'the provider ends its own sessions, by its signed token' }],
  [API_ROUTES.sso.jwks, { exempt: "the instance's public keys: no record of any place" }],
  [API_ROUTES.sso.stepUp, { exempt: "proves the caller's own identity again at their provider" }],
  [
    API_ROUTES.auth.ssoLookup,
    { exempt: "says whether an email's domain has a provider: no record of any place" },
  ],

  // ---- outcome measures, schedules and results ----
  [
    API_ROUTES.outcomes.measures,
    { exempt: "the catalogue of measures is the instance's, as a shared video set is: no place's records" },
  ],
  [
    API_ROUTES.outcomes.createMeasure,
    { exempt: "adds to the instance's catalogue of measures: no place's records" },
  ],
  [
    API_ROUTES.outcomes.updateMeasure,
    { exempt: "changes the instance's catalogue (a measure without results only): no place's records" },
  ],
  [API_ROUTES.outcomes.schedule, { call: (other) => ({ url: `/api/videoset/${other.setId}/assessments` }) }],
  [
    API_ROUTES.outcomes.saveSchedule,
    {
      call: (other) => ({
        url: `/api/videoset/${other.setId}/assessments`,
        payload: { timepoints: [{ timepoint: 'baseline', measures: ['6MWD'] }] },
      }),
    },
  ],
  [
    API_ROUTES.outcomes.results,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/assessments` }) },
  ],
  [
    API_ROUTES.outcomes.record,
    {
      call: (other) => ({
        url: `/api/participant/${other.participantId}/assessments`,
        payload: {
          timepoint: 'baseline',
          measure: '6MWD',
          taken_on: new Date().toISOString().slice(0, 10),
          value: 300,
          note: 'Tenancy walk',
        },
      }),
    },
  ],
  [
    API_ROUTES.outcomes.amend,
    {
      call: (other) => ({
        url: `/api/participant/${other.participantId}/assessments/${other.assessmentId}/amend`,
        payload: { value: 301, reason: 'Tenancy correction' },
      }),
    },
  ],
  [
    API_ROUTES.outcomes.ofParticipant,
    { call: (other) => ({ url: `/api/participant/${other.participantId}/outcomes` }) },
  ],
  [API_ROUTES.outcomes.fhir, { call: (other) => ({ url: `/api/participant/${other.participantId}/fhir` }) }],
  [
    API_ROUTES.reports.outcomes,
    { call: () => ({ url: '/api/reports/outcomes?from=2025-01-01&to=2026-12-31&measure=6MWD' }) },
  ],

  [API_ROUTES.videoSets.list, { call: () => ({ url: '/api/videoset' }) }],
  [
    API_ROUTES.videoSets.create,
    {
      call: () => ({
        url: '/api/videoset',
        payload: { set_name: 'Tenancy set', number_of_weeks: 1, videos_in_week: 1 },
      }),
    },
  ],
  [API_ROUTES.videoSets.get, { call: (other) => ({ url: `/api/videoset/${other.setId}` }) }],
  [
    API_ROUTES.videoSets.rename,
    { call: (other) => ({ url: `/api/videoset/${other.setId}`, payload: { set_name: 'Mine' } }) },
  ],
  [
    API_ROUTES.videoSets.deletionImpact,
    { call: (other) => ({ url: `/api/videoset/${other.setId}/deletion-impact` }) },
  ],
  [API_ROUTES.videoSets.remove, { call: (other) => ({ url: `/api/videoset/${other.setId}` }) }],
  [API_ROUTES.videoSets.videos, { call: (other) => ({ url: `/api/videoset/${other.setId}/videos` }) }],
  [API_ROUTES.videos.uploadSettings, { call: () => ({ url: '/api/video/upload-settings' }) }],
  [API_ROUTES.videos.thumbsOfSet, { call: (other) => ({ url: `/api/video/thumbs/${other.setId}` }) }],
  [API_ROUTES.videos.get, { call: (other) => ({ url: `/api/video/${other.videoId}` }) }],
  [
    API_ROUTES.videos.create,
    {
      call: (other) => ({
        url: '/api/video',
        payload: {
          title: 'Tenancy video',
          description: 'Into another set',
          file_location_path: 'uploads/00000000000000000000000000000000',
          fitness_video_set_id: other.setId,
          week_number: 1,
          day_number: 2,
        },
      }),
    },
  ],
  [
    API_ROUTES.videos.update,
    { call: (other) => ({ url: `/api/video/${other.videoId}`, payload: { title: 'Mine' } }) },
  ],
  [
    API_ROUTES.videos.deletionImpact,
    { call: (other) => ({ url: `/api/video/${other.videoId}/deletion-impact` }) },
  ],
  [API_ROUTES.videos.remove, { call: (other) => ({ url: `/api/video/${other.videoId}` }) }],
  [
    API_ROUTES.videos.reextractThumbnail,
    {
      call: (other) => ({
        url: '/api/video/thumbs/reextract',
        payload: { video_id: other.videoId, file_location_path: 'uploads/00000000000000000000000000000000' },
      }),
    },
  ],
  [API_ROUTES.videos.requestThumbnail, { call: (other) => ({ url: `/thumbs?videoId=${other.videoId}` }) }],

  // ---- figures ----
  [API_ROUTES.dashboard.get, { call: () => ({ url: '/api/dashboard' }) }],
  [API_ROUTES.reports.get, { call: () => ({ url: '/api/reports/videos?from=2025-01-01&to=2026-12-31' }) }],
  [
    API_ROUTES.reports.exportXlsx,
    { call: () => ({ url: '/api/reports/export.xlsx?from=2025-01-01&to=2026-12-31' }) },
  ],

  // ---- the tablet app, with A1's tablet ----
  [
    deviceApi.register,
    {
      exempt:
        "the tablet's registration is by its device id, with no session or token (the app cannot change, device-api.md): the id is not a secret, calls are rate limited per id and address",
    },
  ],
  [deviceApi.savePushToken, { exempt: 'as the registration: by device id, and it answers nothing' }],
  [
    deviceApi.todaysVideos,
    {
      asDevice: true,
      call: (other) => ({ url: `/api/videoset/today/${other.setId}/participant/${other.participantId}` }),
    },
  ],
  [
    deviceApi.progress,
    { asDevice: true, call: (other) => ({ url: `/api/participationprogress/${other.progressId}` }) },
  ],
  [
    deviceApi.summary,
    {
      asDevice: true,
      call: (other) => ({ url: `/api/summary/${other.setId}/participant/${other.participantId}` }),
    },
  ],
  [
    deviceApi.reportViews,
    {
      asDevice: true,
      call: (other) => ({
        url: `/api/videoset/view/${other.setId}/participant/${other.participantId}`,
        payload: { day: '1', week: '1', videoIds: [other.videoId] },
      }),
    },
  ],
];

export const TENANCY_CASES = new Map<string, TenancyCase>(
  ENTRIES.map(([route, tenancyCase]) => [`${route.method} ${route.path}`, tenancyCase]),
);

/** Every route of the contract's table (the console's and the tablet's), by `METHOD path`. */
export const TABLE_ROUTES: RouteDeclaration[] = [
  ...Object.values(API_ROUTES as Record<string, Record<string, RouteDeclaration>>).flatMap((group) =>
    Object.values(group),
  ),
  ...Object.values<RouteDeclaration>(deviceApi),
];

/** The routes that take `?site_id=` (one site among those the admin sees), by `METHOD path`. */
export const SITE_FILTERED_ROUTES = new Set(
  Object.values(api)
    .flatMap((group) => Object.values(group as Record<string, Endpoint>))
    .filter(
      (entry) =>
        entry.method === 'GET' && entry.query instanceof z.ZodObject && 'site_id' in entry.query.shape,
    )
    .map((entry) => `${entry.method} ${entry.path}`),
);
