import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { messages } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { adminUsers, sessions, ssoConfigurations, ssoLogoutTokens } from '../../db/schema.js';
import { badRequest } from '../../lib/http-error.js';
import { AuditService } from '../audit/index.js';
import { endSessionsOf } from '../auth/index.js';
import { discoverProvider } from './provider.js';

/** The event a logout token must carry (Back-Channel Logout 1.0, section 2.4). */
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** The times in a logout token are judged with this much room, as the ID token's are (openid-client's default). */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * A provider's keys by their address: jose fetches them once and again only for a key id it has
 * not seen (a rotation). A cache only: any instance can fetch them itself.
 */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(jwksUri: string) {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000 });
    keySets.set(jwksUri, keys);
  }
  return keys;
}

const invalid = (why: string) => Object.assign(badRequest(messages.sso.logoutTokenInvalid), { why });

/**
 * OpenID Connect Back-Channel Logout 1.0: the provider posts a logout token and every Pathway
 * session of that person ends at once.
 *
 * openid-client (v6) has no logout token validation, so it is done here with jose (the JOSE library
 * openid-client itself uses), step by step as section 2.6 of the specification says:
 *  1. an encrypted token (JWE) is refused: Pathway registers no encryption key;
 *  2. the signature is checked with the provider's published keys (jwks_uri from its discovery
 *     document), as an ID token's is;
 *  3. `alg` must be one the provider says it signs ID tokens with (`none` never);
 *  4. `iss` must be the provider's issuer, `aud` Pathway's client id, `iat` present and `exp` not
 *     passed;
 *  5. `sub`, `sid` or both must be present;
 *  6. `events` must be an object with the member http://schemas.openid.net/event/backchannel-logout;
 *  7. there must be no `nonce`;
 *  8. a `jti` already acted on is refused (kept until the token expires);
 * and 9-11 (the optional matches with an ID token of a session): `sub` is matched to the admin
 * linked to that subject at this provider, `sid` to the sessions that sign-in opened.
 */
export async function backchannelLogout(ctx: AppContext, logoutToken: string, ip: string): Promise<number> {
  // 1. A JWE has five parts.
  if (logoutToken.split('.').length !== 3) throw invalid('not a signed JWT (encrypted or malformed)');
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(logoutToken);
  } catch {
    throw invalid('not a JWT');
  }
  // The issuer names which provider's keys to check with; several organisations may share one
  // (CIS2 is national), told apart by the audience, Pathway's client id at each.
  if (typeof unverified.iss !== 'string') throw invalid('no iss');
  const audiences = [unverified.aud].flat().filter((a): a is string => typeof a === 'string');
  const candidates = await ctx.db
    .select()
    .from(ssoConfigurations)
    .where(eq(ssoConfigurations.issuer, unverified.iss));
  const settings = candidates.find((c) => audiences.includes(c.client_id));
  if (!settings) throw invalid('no organisation uses this issuer with this audience');

  let server;
  try {
    server = (await discoverProvider(settings, ctx.secrets, ctx.clock)).serverMetadata();
  } catch {
    throw invalid('the provider could not be reached to check the token');
  }
  if (!server.jwks_uri) throw invalid('the provider publishes no keys');
  // 3. The provider's ID token algorithms, RS256 when it names none; never `none`.
  const algorithms = (server.id_token_signing_alg_values_supported ?? ['RS256']).filter((a) => a !== 'none');

  let claims: JWTPayload;
  try {
    // 2 and 4: signature, alg, iss, aud, iat and exp.
    ({ payload: claims } = await jwtVerify(logoutToken, keySetOf(server.jwks_uri), {
      issuer: settings.issuer,
      audience: settings.client_id,
      algorithms,
      requiredClaims: ['iat', 'exp', 'jti', 'events'],
      currentDate: ctx.clock.now(),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    }));
  } catch (error) {
    throw invalid(`signature or claims: ${(error as { code?: string }).code ?? 'refused'}`);
  }
  // 5.
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  const sid = typeof claims.sid === 'string' ? claims.sid : undefined;
  if (!sub && !sid) throw invalid('neither sub nor sid');
  // 6.
  const events = claims.events;
  if (
    !events ||
    typeof events !== 'object' ||
    Array.isArray(events) ||
    !Object.hasOwn(events, BACKCHANNEL_LOGOUT_EVENT)
  )
    throw invalid('no back-channel logout event');
  // 7.
  if ('nonce' in claims) throw invalid('a nonce (an ID token, not a logout token)');
  // 8. Once only: the row is kept until the token would have expired anyway.
  const jti = String(claims.jti);
  const fresh = await ctx.db
    .insert(ssoLogoutTokens)
    .values({ issuer: settings.issuer, jti, expires_at: new Date(Number(claims.exp) * 1000) })
    .onConflictDoNothing()
    .returning({ jti: ssoLogoutTokens.jti });
  if (fresh.length === 0) throw invalid('a jti already used');

  return endSessionsOfPerson(ctx.db, settings, { sub, sid }, ip);
}

/** Ends every session of the person the token names (by subject, or by the sessions of that provider session). */
async function endSessionsOfPerson(
  db: Database,
  settings: typeof ssoConfigurations.$inferSelect,
  { sub, sid }: { sub?: string; sid?: string },
  ip: string,
): Promise<number> {
  const people = new Map<number, string>();
  if (sub) {
    const rows = await db
      .select({ id: adminUsers.admin_user_id, user_name: adminUsers.user_name })
      .from(adminUsers)
      .where(and(eq(adminUsers.sso_issuer, settings.issuer), eq(adminUsers.sso_subject, sub)));
    for (const row of rows) people.set(row.id, row.user_name);
  } else if (sid) {
    const rows = await db
      .select({ id: adminUsers.admin_user_id, user_name: adminUsers.user_name })
      .from(sessions)
      .innerJoin(adminUsers, eq(adminUsers.admin_user_id, sessions.admin_user_id))
      .where(and(eq(sessions.sso_sid, sid), eq(sessions.sso_organisation_id, settings.organisation_id)));
    for (const row of rows) people.set(row.id, row.user_name);
  }
  if (people.size === 0) return 0;
  return db.transaction(async (tx) => {
    const open = await tx
      .select({ id: sessions.session_id })
      .from(sessions)
      .where(and(inArray(sessions.admin_user_id, [...people.keys()]), isNull(sessions.ended_at)));
    const audit = new AuditService(tx);
    for (const [id, userName] of people) {
      await endSessionsOf(tx, id);
      await audit.record(
        { adminUserId: id, userName, ip },
        {
          action: 'sso.backchannel_logout',
          detail: `by ${settings.issuer}${sid ? ' (provider session)' : ''}`,
        },
        tx,
      );
    }
    return open.length;
  });
}

/** Logout tokens past their expiry can no longer be replayed: their rows go (the retention job). */
export async function pruneLogoutTokens(db: Database, now: Date): Promise<number> {
  const removed = await db
    .delete(ssoLogoutTokens)
    .where(lt(ssoLogoutTokens.expires_at, now))
    .returning({ jti: ssoLogoutTokens.jti });
  return removed.length;
}
