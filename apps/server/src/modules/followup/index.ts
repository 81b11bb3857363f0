/** The follow-up worklist and the contacts recorded from it. */
export { followupRoutes } from './routes.js';
export { lastContactsOf } from './service.js';
export { foldFollowupTally } from './worklist.js';
