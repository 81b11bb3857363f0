/** Discharge, re-referral, the participant's record (subject access) and its destruction. */
export { RecordsService } from './records.js';
export { lifeCycleRoutes } from './routes.js';
