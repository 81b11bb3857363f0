import { z } from 'zod';
import { okResponse } from './common.js';
import {
  deviceIdParam,
  deviceProgress,
  deviceProgressParams,
  deviceRegistration,
  deviceSetParams,
  deviceTodayVideo,
  pushTokenBody,
  viewReportBody,
} from './device-api.js';
import { endpoint } from './endpoint.js';
import { progressSummary } from './progress.js';

/** Refusals of a tablet call; calls 1 and 2, which carry no token, are also rate limited (429). */
const DEVICE_ERRORS = [400, 401, 403, 404] as const;
const tags = ['tablet app'];

/**
 * The tablet app's own calls (device-api.md), for the server's routes and the OpenAPI document.
 * Calls 3 (PATCH /api/participant/{id}) and 6 (GET /api/video/thumbs/{id}) share their entries
 * with the console (`api.participants.update`, `api.videos.thumbsOfSet`).
 */
export const deviceApi = {
  register: endpoint({
    method: 'GET',
    path: '/uuid/:deviceId',
    // No token yet: this call hands one out (rate limited instead).
    access: 'public',
    params: deviceIdParam,
    responses: { 200: deviceRegistration },
    errors: [...DEVICE_ERRORS, 429],
    tags,
    summary: 'Call 1: the participant, programme and videos of this tablet, with a new bearer token',
    description:
      'Any answer but 200 makes the app show "This device is not registered": an unknown device, a device not ' +
      'assigned to a participant, or a participant without a video set. Earlier tokens stay valid; every ' +
      'token handed out is recorded (GET /api/devicesignins). Rate limited per device id and per source ' +
      'address (429 with Retry-After).',
  }),
  savePushToken: endpoint({
    method: 'PATCH',
    path: '/uuid/:deviceId',
    // The app sends no token with this call (see the description).
    access: 'public',
    params: deviceIdParam,
    body: pushTokenBody,
    responses: { 200: okResponse },
    errors: [...DEVICE_ERRORS, 429],
    tags,
    summary: "Call 2: the app's Firebase registration token, sent on every start",
    description:
      'The app sends no bearer token with this call (its limit), so it is rate limited like call 1 and each ' +
      'change of token is recorded with the sign-ins.',
  }),
  todaysVideos: endpoint({
    method: 'GET',
    path: '/api/videoset/today/:videoSetId/participant/:participantId',
    access: 'device',
    params: deviceSetParams,
    responses: { 200: z.array(deviceTodayVideo) },
    errors: DEVICE_ERRORS,
    tags,
    summary: "Call 4: today's session: the video of the participant's current week and day only",
    description:
      'Never empty while the participant has a position: a position only ever points at a day with a video.',
  }),
  progress: endpoint({
    method: 'GET',
    path: '/api/participationprogress/:progressId',
    access: 'device',
    params: deviceProgressParams,
    responses: { 200: deviceProgress },
    errors: DEVICE_ERRORS,
    tags,
    summary: 'Call 5: the progress object',
  }),
  summary: endpoint({
    method: 'GET',
    path: '/api/summary/:videoSetId/participant/:participantId',
    access: 'device',
    params: deviceSetParams,
    responses: { 200: progressSummary },
    errors: DEVICE_ERRORS,
    tags,
    summary: 'Call 7: the progress summary',
  }),
  reportViews: endpoint({
    method: 'POST',
    path: '/api/videoset/view/:videoSetId/participant/:participantId',
    access: 'device',
    params: deviceSetParams,
    body: viewReportBody,
    responses: { 200: okResponse },
    errors: DEVICE_ERRORS,
    tags,
    summary: 'Call 8: videos watched (JSON or form body); a video reported twice counts once',
  }),
};
