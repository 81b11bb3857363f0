import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { organisations } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';
import { isSystemAdministrator, organisationOf } from '../../lib/organisation.js';
import { assertFreshStepUp, staffOf } from '../../plugins/access.js';

/**
 * Who may read and change an organisation's single sign-on settings: full access of that
 * organisation (the route table's `sso.manage`) after a step-up for a change, or a system
 * administrator of the instance. One rule for the three routes; another organisation's settings
 * are a 404, as another organisation's records are.
 */
export async function assertMayConfigureSso(
  ctx: Pick<AppContext, 'clock' | 'db'>,
  request: FastifyRequest,
  organisationId: number,
  { change }: { change: boolean },
): Promise<void> {
  const staff = staffOf(request);
  if (!isSystemAdministrator(staff) && organisationOf(staff) !== organisationId)
    throw notFound(messages.sso.organisationNotFound);
  const [organisation] = await ctx.db
    .select({ organisation_id: organisations.organisation_id })
    .from(organisations)
    .where(eq(organisations.organisation_id, organisationId));
  if (!organisation) throw notFound(messages.sso.organisationNotFound);
  if (change) assertFreshStepUp(ctx, request);
}
