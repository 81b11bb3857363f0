/** The tablet app's API (device-api.md). */
export { deviceApiRoutes } from './routes.js';
export { pruneExpiredDeviceTokens, SIGN_IN_KINDS } from './service.js';
