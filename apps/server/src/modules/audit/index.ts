/** The audit trail: every module records its reads and changes of identifiable data through this. */
export { actorOf } from './actor.js';
export { listReadAuditSql } from './list-read.js';
export { auditRoutes } from './routes.js';
export { AuditService, csvCell, type AuditActor, type AuditEntry } from './service.js';
