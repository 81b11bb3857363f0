/** The daily adherence check: its job, and the CLI's run of it now. */
export { adherenceCheckJob, runAdherenceCheck } from './check.js';
