/** Participants: the grid, their details, import and export, and whether a record may change. */
export { participantExportRoutes } from './export-routes.js';
export { participantImportRoutes } from './import-routes.js';
export { participantRoutes, staffActor } from './routes.js';
export { lockParticipant } from './repository.js';
export { ParticipantService } from './service.js';
export { assertActiveParticipant } from './status.js';
