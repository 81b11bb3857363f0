import * as oidc from 'openid-client';
import type { AppContext } from '../../context.js';
import { instanceScope, withScope } from '../../db/scope.js';
import type { StaffSession } from '../../lib/staff-session.js';
import { discoverProvider } from './provider.js';
import { pathwayAddresses, settingsOf } from './settings.js';

/**
 * RP-initiated logout: where the console sends the browser after Pathway's own logout, so that
 * the provider's session ends too. Only for a session signed in through a provider that offers an
 * end_session_endpoint; the address carries Pathway's client id and where to come back, and no
 * token (an ID token in an address would pass through the browser and the provider's logs). A
 * provider that cannot be reached now leaves Pathway's logout done and the provider's session as it is.
 */
export async function endSessionUrlOf(
  ctx: AppContext,
  session: Pick<StaffSession, 'ssoOrganisationId'>,
  base: string,
): Promise<string | undefined> {
  if (session.ssoOrganisationId === null) return undefined;
  // Logout is public (a session may have expired): the provider's settings are read as the
  // instance's named work.
  const organisationId = session.ssoOrganisationId;
  const settings = await withScope(instanceScope('sign-out'), () => settingsOf(ctx.db, organisationId));
  if (!settings) return undefined;
  try {
    const config = await discoverProvider(settings, ctx.secrets, ctx.clock);
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: pathwayAddresses(base).post_logout_redirect_uri,
    }).href;
  } catch (error) {
    ctx.logger.warn(
      { code: (error as { code?: string }).code },
      'the identity provider could not be reached for sign-out',
    );
    return undefined;
  }
}
