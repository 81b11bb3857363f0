/** Outcome measures, assessment schedules and results. */
export { outcomeRoutes } from './routes.js';
