/** Authorised devices, their tokens' end, and the history of which participant had which device. */
export { closeAssignment, openAssignment } from './assignments.js';
export { deviceRoutes } from './routes.js';
export { revokeDeviceTokens } from './service.js';
