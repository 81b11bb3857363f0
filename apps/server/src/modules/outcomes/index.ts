/** Outcome measures, assessment schedules and results. */
export { advanceAssessmentDue } from './due.js';
export { outcomeRoutes } from './routes.js';
