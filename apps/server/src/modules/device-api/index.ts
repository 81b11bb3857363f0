/** The tablet app's API (device-api.md). */
export { deviceApiRoutes } from './routes.js';
export { pruneExpiredDeviceTokens } from './service.js';
