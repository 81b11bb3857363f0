import { and, eq, isNull, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { limits, roleSchema, type Role } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { preparedArrays } from '../../db/prepared.js';
import { rowReader } from '../../db/rows.js';
import { sessions } from '../../db/schema.js';
import { instanceScope, withScope } from '../../db/scope.js';
import type { Clock } from '../../lib/clock.js';
import { SessionTokenVerifier } from '../../lib/session-token.js';
import type { SecretBox } from '../../lib/secret-box.js';

import type { StaffSession, StaffSessions } from '../../lib/staff-session.js';

export { SESSION_COOKIE, type StaffSession, type StaffSessions } from '../../lib/staff-session.js';
const IDLE_MS = limits.sessionIdleMinutes * 60_000;
/** A cookie's session is looked up before anyone is known: among every organisation's. */
const SESSION_SCOPE = instanceScope('session');
const MAX_AGE_MS = limits.sessionMaxHours * 3_600_000;
/**
 * last_seen_at is written at most once a minute, so a busy console does not write on every call;
 * the 30-minute idle limit is then kept to within a minute.
 */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The key that signs session cookies, the same on every instance: SESSION_SECRET when set, else
 * derived from the secrets key with HKDF (lib/secret-box.ts). Derived rather than stored (0.1.0
 * kept a random one in server_secrets, in the clear): nothing in the database, or in a copy of
 * it, lets anyone mint a cookie; every instance sharing SECRETS_KEY agrees without a shared row;
 * and rotating the secrets key after a suspected leak ends every session signed with the old
 * one, which re-sealing a stored signing key would not.
 */
export function sessionSigningKey(configured: string | undefined, secrets: SecretBox): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  return secrets.deriveKey('session-jwt v1', 32);
}

/**
 * The live session and its user; the role, organisation and sites are read here on every request,
 * never taken from the token. The sites an admin sees are those they are limited to, or every site
 * of their organisation (a site added since the sign-in included).
 */
const RESOLVE_SQL = `
  select s.session_id, s.created_at, s.last_seen_at, u.admin_user_id, u.user_name, u.first_name, u.last_name, u.role,
    coalesce(s.authenticated_at, s.created_at) as authenticated_at, u.organisation_id, u.site_ids,
    case when cardinality(u.site_ids) = 0
      then array(select st.site_id from sites st where st.organisation_id = u.organisation_id order by 1)
      else u.site_ids end as visible_site_ids,
    u.system_administrator, s.sso_organisation_id
  from sessions s join admin_users u on u.admin_user_id = s.admin_user_id
  where s.session_id = $1 and s.ended_at is null`;

const readResolved = rowReader<{
  session_id: string;
  created_at: Date;
  last_seen_at: Date;
  admin_user_id: number;
  user_name: string;
  first_name: string;
  last_name: string;
  role: string;
  authenticated_at: Date;
  organisation_id: number;
  site_ids: number[];
  visible_site_ids: number[];
  system_administrator: boolean;
  sso_organisation_id: number | null;
}>()([
  'session_id',
  'created_at',
  'last_seen_at',
  'admin_user_id',
  'user_name',
  'first_name',
  'last_name',
  'role',
  'authenticated_at',
  'organisation_id',
  'site_ids',
  'visible_site_ids',
  'system_administrator',
  'sso_organisation_id',
]);

/**
 * Ends every session of an admin in the transaction of the change that calls for it (a reset, a
 * password change): the next request with any of their cookies is refused.
 */
export async function endSessionsOf(tx: Database, adminUserId: number): Promise<void> {
  await tx
    .update(sessions)
    .set({ ended_at: sql`now()` })
    .where(and(eq(sessions.admin_user_id, adminUserId), isNull(sessions.ended_at)));
}

export class SessionService implements StaffSessions {
  private readonly tokens: SessionTokenVerifier;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly secret: Uint8Array,
  ) {
    this.tokens = new SessionTokenVerifier(secret);
  }

  /**
   * `db` may be a transaction, so a sign-in's audit record and its session commit together. `sso`:
   * signed in through an organisation's identity provider, with the provider's session id (`sid`).
   */
  async start(
    adminUserId: number,
    role: Role,
    ip: string,
    db: Database = this.db,
    sso?: { organisationId: number; sid: string | null },
  ): Promise<{ token: string; expiresAt: Date }> {
    const now = this.clock.now();
    // A sign-in's transaction has its scope already; on its own, a session is the instance's to start.
    const [row] = await withScope(SESSION_SCOPE, () =>
      db
        .insert(sessions)
        .values({
          admin_user_id: adminUserId,
          ip,
          created_at: now,
          last_seen_at: now,
          authenticated_at: now,
          sso_organisation_id: sso?.organisationId ?? null,
          sso_sid: sso?.sid ?? null,
        })
        .returning({ session_id: sessions.session_id }),
    );
    const expiresAt = new Date(now.getTime() + MAX_AGE_MS);
    const token = await new SignJWT({ role, sid: row!.session_id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(adminUserId))
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.secret);
    return { token, expiresAt };
  }

  /** The live session behind a cookie, or null when it is forged, expired, idle or ended. */
  async resolve(token: string | undefined): Promise<StaffSession | null> {
    if (!token) return null;
    const now = this.clock.now();
    const payload = this.tokens.verify(token, now);
    if (!payload || typeof payload.sid !== 'string' || !/^[0-9a-f-]{36}$/.test(payload.sid)) return null;
    const sid = payload.sid;
    // Every signed-in request reads its session (and so its role) here: a named statement with
    // rows as arrays (db/prepared.ts), not Drizzle's building and mapping each time.
    const [values] = await withScope(SESSION_SCOPE, () =>
      preparedArrays(this.db, 'sessions.resolve.v3', RESOLVE_SQL, [sid]),
    );
    const row = values && readResolved(values);
    if (!row) return null;
    const idleFor = now.getTime() - row.last_seen_at.getTime();
    const age = now.getTime() - row.created_at.getTime();
    if (idleFor > IDLE_MS || age > MAX_AGE_MS) {
      await this.end(sid);
      return null;
    }
    if (idleFor > TOUCH_INTERVAL_MS) {
      await withScope(SESSION_SCOPE, () =>
        this.db.update(sessions).set({ last_seen_at: now }).where(eq(sessions.session_id, sid)),
      );
    }
    return {
      sessionId: row.session_id,
      adminUserId: row.admin_user_id,
      userName: row.user_name,
      firstName: row.first_name,
      lastName: row.last_name,
      // The role comes from the database, not the token, so a demotion takes effect at once.
      role: roleSchema.parse(row.role),
      organisationId: row.organisation_id,
      siteIds: row.site_ids,
      visibleSiteIds: row.visible_site_ids,
      systemAdministrator: row.system_administrator,
      expiresAt: new Date(row.created_at.getTime() + MAX_AGE_MS),
      authenticatedAt: row.authenticated_at,
      ssoOrganisationId: row.sso_organisation_id,
    };
  }

  /** A step-up proved the admin again: dangerous actions are allowed for the next few minutes. */
  async markAuthenticated(sessionId: string, db: Database = this.db): Promise<void> {
    await db
      .update(sessions)
      .set({ authenticated_at: this.clock.now() })
      .where(and(eq(sessions.session_id, sessionId), isNull(sessions.ended_at)));
  }

  async end(sessionId: string): Promise<void> {
    await withScope(SESSION_SCOPE, () =>
      this.db
        .update(sessions)
        .set({ ended_at: this.clock.now() })
        .where(and(eq(sessions.session_id, sessionId), isNull(sessions.ended_at))),
    );
  }
}
