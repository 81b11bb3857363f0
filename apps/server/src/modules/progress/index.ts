/** A participant's programme: position, views, and the rules that move them. */
export { presentDeviceProgress } from './presenter.js';
export {
  findProgressById,
  findProgressOfParticipant,
  nearestVideoDay,
  type ProgressWithSet,
  type VideoRow,
  type VideoSetRow,
} from './repository.js';
export { progressRoutes } from './routes.js';
export { ProgressService } from './service.js';
export { recordViews } from './views.js';
