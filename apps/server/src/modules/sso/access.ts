import type { FastifyRequest } from 'fastify';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/http-error.js';
import { isSystemAdministrator, organisationExists, organisationOf } from '../../lib/organisation.js';
import { assertFreshStepUp, staffOf } from '../../plugins/access.js';

/**
 * Who may read and change an organisation's single sign-on settings: full access of that
 * organisation (the route table's `sso.manage`) after a step-up for a change, or a system
 * administrator of the instance. One rule for the three routes; another organisation's settings
 * are a 404, as another organisation's records are.
 */
export function assertMayConfigureSso(
  ctx: Pick<AppContext, 'clock'>,
  request: FastifyRequest,
  organisationId: number,
  { change }: { change: boolean },
): void {
  const staff = staffOf(request);
  if (!organisationExists(organisationId)) throw notFound(messages.sso.organisationNotFound);
  if (!isSystemAdministrator(staff) && organisationOf(staff) !== organisationId)
    throw notFound(messages.sso.organisationNotFound);
  if (change) assertFreshStepUp(ctx, request);
}
