/** What is kept and for how long: the daily job that prunes, and its routes. */
export { retentionJob } from './retention.js';
export { retentionRoutes } from './routes.js';
