import type { FastifyRequest } from 'fastify';
import { staffOf } from '../../plugins/access.js';
import type { AuditActor } from './service.js';

/**
 * Who a staff request is, for the audit trail. Routes take it from the request and hand services
 * the plain value, so that no service depends on Fastify.
 */
export function actorOf(request: FastifyRequest): AuditActor {
  const staff = staffOf(request);
  return { adminUserId: staff.adminUserId, userName: staff.userName, ip: request.ip ?? null };
}
