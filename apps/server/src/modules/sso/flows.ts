import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { SsoRefusal } from '@pathway/contract';
import type { AppContext } from '../../context.js';
import { adminUsers, sessions, sites, ssoEmailDomains, ssoFlows } from '../../db/schema.js';
import { AuditService, type AuditActor } from '../audit/index.js';
import { endSessionsOf, newStoredTotpSecret } from '../auth/index.js';
import { claimValues, emailDomainOf, roleFromClaims } from './claims.js';
import { SsoRefused, discoverProvider, refusalOf } from './provider.js';
import { pathwayAddresses, settingsForDomain, settingsOf, type SsoSettings } from './settings.js';

/** A sign-in or step-up sent to the provider must come back within this. */
export const FLOW_TTL_MS = 10 * 60_000;
/**
 * A step-up asks the provider for a sign-in no older than this (`max_age`, besides
 * `prompt=login`), and the library checks the ID token's `auth_time` against it: room for the
 * redirects, not for an older sign-in.
 */
const STEP_UP_MAX_AGE_SECONDS = 120;
/** The cookie that binds a flow's state to the browser that started it (login CSRF). */
export const FLOW_COOKIE = 'sso_flow';

type Purpose = 'sign-in' | 'step-up';
type Claims = Record<string, unknown>;

/** The start of a flow: where to send the browser, and the cookie value to set there. */
export interface Started {
  location: URL;
  cookie: string;
}

/** What a callback ended in. */
export type Finished =
  | { purpose: 'sign-in'; adminUserId: number; token: string; expiresAt: Date }
  | { purpose: 'step-up' }
  | { purpose: Purpose; refused: SsoRefusal };

/**
 * The authorization code flow with PKCE, state and nonce (openid-client does every check of the
 * provider's answer). A flow's state, nonce and code verifier wait in sso_flows for 10 minutes and
 * are used once; the state is also in a cookie signed with a key derived from the secrets key, so
 * only the browser that started the flow can finish it.
 */
export class SsoFlows {
  private readonly audit: AuditService;
  private readonly cookieKey: Uint8Array;

  constructor(private readonly ctx: AppContext) {
    this.audit = new AuditService(ctx.db);
    this.cookieKey = ctx.secrets.deriveKey('sso-flow-cookie v1', 32);
  }

  // ---- the signed cookie ----

  private mac(text: string): string {
    return createHmac('sha256', this.cookieKey).update(text).digest('base64url');
  }

  private flowCookie(state: string, now: Date): string {
    const expires = Math.floor((now.getTime() + FLOW_TTL_MS) / 1000);
    return `${state}.${expires}.${this.mac(`${state}.${expires}`)}`;
  }

  /** The state the browser's cookie vouches for, or null when it is missing, forged or old. */
  private stateOfCookie(cookie: string | undefined, now: Date): string | null {
    const [state, expires, mac] = (cookie ?? '').split('.');
    if (!state || !expires || !mac || !/^\d+$/.test(expires)) return null;
    const expected = Buffer.from(this.mac(`${state}.${expires}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return Number(expires) * 1000 > now.getTime() ? state : null;
  }

  // ---- starting ----

  /** A sign-in for the work email typed on the sign-in page; a refusal is audited. */
  async startSignIn(email: string | undefined, base: string, ip: string): Promise<Started | SsoRefusal> {
    const typed = (email ?? '').trim().slice(0, 200);
    const domain = emailDomainOf(typed);
    const settings = domain ? await settingsForDomain(this.ctx.db, domain) : null;
    const actor: AuditActor = { adminUserId: null, userName: typed || '(no email)', ip };
    if (!settings) {
      await this.refuse(actor, 'unknown_domain', `no provider for ${domain ?? 'that email'}`, null);
      return 'unknown_domain';
    }
    try {
      return await this.start(settings, 'sign-in', base, { login_hint: typed });
    } catch (error) {
      const refusal = refusalOf(error);
      await this.refuse(actor, refusal.reason, refusal.detail, settings);
      return refusal.reason;
    }
  }

  /** A step-up of a session signed in through its organisation's provider. */
  async startStepUp(
    session: { sessionId: string; adminUserId: number; userName: string; ssoOrganisationId: number },
    base: string,
    ip: string,
  ): Promise<Started | SsoRefusal> {
    const settings = await settingsOf(this.ctx.db, session.ssoOrganisationId);
    const actor: AuditActor = { adminUserId: session.adminUserId, userName: session.userName, ip };
    if (!settings) {
      await this.refuse(actor, 'unknown_domain', 'the organisation no longer has a provider', null);
      return 'unknown_domain';
    }
    try {
      return await this.start(
        settings,
        'step-up',
        base,
        {
          prompt: 'login',
          max_age: String(STEP_UP_MAX_AGE_SECONDS),
        },
        session.sessionId,
      );
    } catch (error) {
      const refusal = refusalOf(error);
      await this.refuse(actor, refusal.reason, `step-up: ${refusal.detail}`, settings);
      return refusal.reason;
    }
  }

  private async start(
    settings: SsoSettings,
    purpose: Purpose,
    base: string,
    extra: Record<string, string>,
    sessionId?: string,
  ): Promise<Started> {
    const config = await discoverProvider(settings, this.ctx.secrets, this.ctx.clock);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const verifier = oidc.randomPKCECodeVerifier();
    const now = this.ctx.clock.now();
    await this.ctx.db.insert(ssoFlows).values({
      state,
      organisation_id: settings.organisation_id,
      purpose,
      session_id: sessionId ?? null,
      nonce,
      code_verifier: verifier,
      created_at: now,
    });
    const scope = ['openid', 'profile', 'email', ...(settings.scopes?.split(' ') ?? [])];
    const location = oidc.buildAuthorizationUrl(config, {
      redirect_uri: pathwayAddresses(base).redirect_uri,
      scope: [...new Set(scope)].join(' '),
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...(settings.acr_values ? { acr_values: settings.acr_values } : {}),
      ...extra,
    });
    return { location, cookie: this.flowCookie(state, now) };
  }

  // ---- the provider's answer ----

  /**
   * The provider's redirect back. The state must be the one the browser's cookie vouches for and
   * a flow not yet used nor older than 10 minutes (claimed here, so it works once); then the
   * library checks the answer and the tokens.
   */
  async finish(
    query: Record<string, string | undefined>,
    cookie: string | undefined,
    base: string,
    ip: string,
  ): Promise<Finished> {
    const now = this.ctx.clock.now();
    const anonymous: AuditActor = { adminUserId: null, userName: '(single sign-on)', ip };
    const state = this.stateOfCookie(cookie, now);
    if (!state || state !== query.state) {
      await this.refuse(
        anonymous,
        'state',
        cookie ? 'the state is not the one this browser started' : 'no flow cookie in this browser',
        null,
      );
      return { purpose: 'sign-in', refused: 'state' };
    }
    const [flow] = await this.ctx.db
      .update(ssoFlows)
      .set({ used_at: now })
      .where(
        and(
          eq(ssoFlows.state, state),
          isNull(ssoFlows.used_at),
          gt(ssoFlows.created_at, new Date(now.getTime() - FLOW_TTL_MS)),
        ),
      )
      .returning();
    if (!flow) {
      await this.refuse(anonymous, 'state', 'the state was already used or has expired', null);
      return { purpose: 'sign-in', refused: 'state' };
    }
    const purpose = flow.purpose as Purpose;
    const settings = await settingsOf(this.ctx.db, flow.organisation_id);
    if (!settings) {
      await this.refuse(anonymous, 'unknown_domain', 'the organisation no longer has a provider', null);
      return { purpose, refused: 'unknown_domain' };
    }
    let claims: Claims;
    try {
      const config = await discoverProvider(settings, this.ctx.secrets, this.ctx.clock);
      const current = new URL(pathwayAddresses(base).redirect_uri);
      for (const [key, value] of Object.entries(query))
        if (value !== undefined) current.searchParams.set(key, value);
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.code_verifier,
        expectedNonce: flow.nonce,
        expectedState: state,
        ...(purpose === 'step-up' ? { maxAge: STEP_UP_MAX_AGE_SECONDS } : {}),
      });
      claims = tokens.claims() as Claims;
    } catch (error) {
      const refusal = refusalOf(error);
      await this.refuse(anonymous, refusal.reason, refusal.detail, settings);
      return { purpose, refused: refusal.reason };
    }
    const person: AuditActor = {
      adminUserId: null,
      userName: stringClaim(claims.email) ?? `subject ${String(claims.sub)}`,
      ip,
    };
    try {
      assertAcr(claims, settings.acr_values);
      if (purpose === 'step-up') {
        await this.stepUp(claims, settings, flow.session_id, ip);
        return { purpose };
      }
      return { purpose, ...(await this.signIn(claims, settings, ip)) };
    } catch (error) {
      if (!(error instanceof SsoRefused)) throw error;
      await this.refuse(
        { ...person, ...(error instanceof PersonRefused ? error.actor : {}) },
        error.reason,
        error.detail,
        settings,
      );
      return { purpose, refused: error.reason };
    }
  }

  /** The admin the claims are, found by subject, else linked by a verified email, else created (jit). */
  private async signIn(
    claims: Claims,
    settings: SsoSettings,
    ip: string,
  ): Promise<{ adminUserId: number; token: string; expiresAt: Date }> {
    const db = this.ctx.db;
    const subject = String(claims.sub);
    const [bySubject] = await db
      .select()
      .from(adminUsers)
      .where(and(eq(adminUsers.sso_issuer, settings.issuer), eq(adminUsers.sso_subject, subject)));
    const domains = await db
      .select({ domain: ssoEmailDomains.domain })
      .from(ssoEmailDomains)
      .where(eq(ssoEmailDomains.organisation_id, settings.organisation_id));
    const email = verifiedEmailOf(
      claims,
      domains.map((d) => d.domain),
    );
    const [byEmail] =
      bySubject || !email
        ? []
        : await db
            .select()
            .from(adminUsers)
            .where(sql`lower(${adminUsers.user_name}) = ${email}`);
    // An account linked to this provider as another subject is not taken over by an email.
    const linkable = byEmail && byEmail.sso_issuer !== settings.issuer ? byEmail : undefined;
    const admin = bySubject ?? linkable;
    const actorOf = (row: typeof admin): AuditActor => ({
      adminUserId: row?.admin_user_id ?? null,
      userName: row?.user_name ?? email ?? stringClaim(claims.email) ?? `subject ${subject}`,
      ip,
    });

    const role = roleFromClaims(claims, settings.role_claim, settings.role_map);
    if (role === null) {
      // Their role at the provider is gone: whatever they had open in Pathway ends too.
      if (admin) await endSessionsOf(db, admin.admin_user_id);
      throw new PersonRefused(
        'role',
        `no value of ${settings.role_claim} maps to a role${admin ? '; their sessions ended' : ''}`,
        actorOf(admin),
      );
    }
    // One provider signs in its own organisation's admins: an account of another organisation
    // (a person known to two trusts that share an issuer, such as CIS2) is not taken over by it.
    if (admin && admin.organisation_id !== settings.organisation_id)
      throw new PersonRefused(
        'other_organisation',
        `the admin belongs to organisation ${admin.organisation_id}, the provider to ${settings.organisation_id}`,
        actorOf(admin),
      );
    const siteIds = await this.sitesFromClaims(claims, settings);
    if (siteIds === null) {
      // Never "every site" because the claim named none we know: that would widen their access.
      if (admin) await endSessionsOf(db, admin.admin_user_id);
      throw new PersonRefused(
        'sites',
        `no value of ${settings.site_claim} names a site of the organisation${admin ? '; their sessions ended' : ''}`,
        actorOf(admin),
      );
    }
    if (!admin) {
      // An email the provider does not vouch for (or of another organisation's domain) neither
      // links an account nor names a new one.
      if (!email && stringClaim(claims.email))
        throw new PersonRefused(
          'email_unverified',
          "the email is not verified or not of the organisation's domains",
          actorOf(undefined),
        );
      if (!email) throw new PersonRefused('unknown_user', 'no email claim', actorOf(undefined));
      if (!settings.jit)
        throw new PersonRefused(
          'unknown_user',
          'no admin of that subject or email, and just-in-time creation is off',
          actorOf(undefined),
        );
    }

    const sso = { organisationId: settings.organisation_id, sid: stringClaim(claims.sid) ?? null };
    return db.transaction(async (tx) => {
      const audit = new AuditService(tx);
      let row = admin;
      if (!row) {
        const { stored } = newStoredTotpSecret(this.ctx.secrets);
        // No password: an admin made by their provider signs in through it (or is given one by full access).
        [row] = await tx
          .insert(adminUsers)
          .values({
            user_name: email!,
            organisation_id: settings.organisation_id,
            site_ids: siteIds ?? [],
            first_name: (stringClaim(claims.given_name) ?? '').slice(0, 100),
            last_name: (stringClaim(claims.family_name) ?? '').slice(0, 100),
            role,
            password_hash: '',
            totp_secret: stored,
            sso_issuer: settings.issuer,
            sso_subject: subject,
          })
          .returning();
        await audit.record(
          actorOf(row),
          { action: 'sso.jit_create', detail: `${role}, by ${settings.issuer}` },
          tx,
        );
      } else if (row.sso_subject !== subject || row.sso_issuer !== settings.issuer) {
        await tx
          .update(adminUsers)
          .set({ sso_issuer: settings.issuer, sso_subject: subject })
          .where(eq(adminUsers.admin_user_id, row.admin_user_id));
        await audit.record(
          actorOf(row),
          { action: 'sso.link', detail: `by verified email, at ${settings.issuer}` },
          tx,
        );
      }
      if (row!.role !== role) {
        await tx.update(adminUsers).set({ role }).where(eq(adminUsers.admin_user_id, row!.admin_user_id));
        await audit.record(
          actorOf(row),
          {
            action: 'admin.role_change',
            detail: `${row!.role} to ${role}, from the claims of ${settings.issuer}`,
          },
          tx,
        );
      }
      if (siteIds !== undefined && !sameSites(row!.site_ids, siteIds)) {
        await tx
          .update(adminUsers)
          .set({ site_ids: siteIds })
          .where(eq(adminUsers.admin_user_id, row!.admin_user_id));
        await audit.record(
          actorOf(row),
          {
            action: 'admin.sites_change',
            detail: `sites ${row!.site_ids.join(', ') || 'all'} to ${siteIds.join(', ')}, from the claims of ${settings.issuer}`,
          },
          tx,
        );
      }
      await audit.record(
        actorOf(row),
        { action: 'signin.success', detail: `single sign-on (${settings.issuer})` },
        tx,
      );
      const session = await this.ctx.sessions.start(row!.admin_user_id, role, ip, tx, sso);
      return { adminUserId: row!.admin_user_id, ...session };
    });
  }

  /**
   * The sites the claims limit the person to: the organisation's sites whose ODS code or name a
   * value of the site claim is (case aside), in id order; undefined when the organisation maps no
   * site claim (their sites stay as full access set them); null when the claim names none.
   */
  private async sitesFromClaims(claims: Claims, settings: SsoSettings): Promise<number[] | null | undefined> {
    if (!settings.site_claim) return undefined;
    const named = new Set(claimValues(claims, settings.site_claim).map((v) => v.trim().toLowerCase()));
    const organisationSites = await this.ctx.db
      .select({ site_id: sites.site_id, name: sites.name, ods_code: sites.ods_code })
      .from(sites)
      .where(eq(sites.organisation_id, settings.organisation_id));
    const ids = organisationSites
      .filter(
        (s) =>
          named.has(s.name.toLowerCase()) || (s.ods_code !== null && named.has(s.ods_code.toLowerCase())),
      )
      .map((s) => s.site_id)
      .sort((a, b) => a - b);
    return ids.length > 0 ? ids : null;
  }

  /** The same person signed in again at the provider: the session may take dangerous actions. */
  private async stepUp(
    claims: Claims,
    settings: SsoSettings,
    sessionId: string | null,
    ip: string,
  ): Promise<void> {
    const db = this.ctx.db;
    const [row] = sessionId
      ? await db
          .select({ admin: adminUsers })
          .from(sessions)
          .innerJoin(adminUsers, eq(adminUsers.admin_user_id, sessions.admin_user_id))
          .where(and(eq(sessions.session_id, sessionId), isNull(sessions.ended_at)))
      : [];
    if (!row) throw new SsoRefused('session_ended', 'step-up: the session has ended');
    const actor: AuditActor = { adminUserId: row.admin.admin_user_id, userName: row.admin.user_name, ip };
    if (row.admin.sso_issuer !== settings.issuer || row.admin.sso_subject !== String(claims.sub))
      throw new PersonRefused('other_person', 'step-up: another subject signed in at the provider', actor);
    await db.transaction(async (tx) => {
      await this.ctx.sessions.markAuthenticated(sessionId!, tx);
      await new AuditService(tx).record(
        actor,
        { action: 'session.step_up', detail: `through ${settings.issuer}` },
        tx,
      );
    });
  }

  private async refuse(
    actor: AuditActor,
    reason: SsoRefusal,
    detail: string,
    settings: SsoSettings | null,
  ): Promise<void> {
    const provider = settings ? ` (provider ${settings.issuer})` : '';
    this.ctx.logger.warn({ reason, provider: settings?.issuer }, `single sign-on refused: ${detail}`);
    await this.audit.record(actor, { action: 'sso.refused', detail: `${reason}: ${detail}${provider}` });
  }
}

const sameSites = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((id, i) => id === b[i]);

/** Flows never finished (the person gave up at the provider) and finished ones: the retention job removes them. */
export async function pruneSsoFlows(db: AppContext['db'], now: Date): Promise<number> {
  const removed = await db
    .delete(ssoFlows)
    .where(lt(ssoFlows.created_at, new Date(now.getTime() - FLOW_TTL_MS)))
    .returning({ state: ssoFlows.state });
  return removed.length;
}

/** A refusal about a known person: the audit names them. */
class PersonRefused extends SsoRefused {
  constructor(
    reason: SsoRefusal,
    detail: string,
    readonly actor: AuditActor,
  ) {
    super(reason, detail);
  }
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The person's email, lower-cased, when the provider vouches for it (`email_verified`, or Entra
 * ID's `xms_edov`, "email domain owner verified") and it is of one of the organisation's domains:
 * only such an email links an account or names a new one. Entra ID's `email` claim can otherwise
 * be set by the person themself.
 */
function verifiedEmailOf(claims: Claims, domains: string[]): string | null {
  const email = stringClaim(claims.email)?.toLowerCase();
  const verified =
    claims.email_verified === true || claims.email_verified === 'true' || claims.xms_edov === true;
  if (!email || !verified) return null;
  const domain = emailDomainOf(email);
  return domain !== null && domains.includes(domain) ? email : null;
}

/** With `acr_values` asked for, the ID token's `acr` must be one of them. */
function assertAcr(claims: Claims, acrValues: string | null): void {
  if (!acrValues) return;
  const acr = stringClaim(claims.acr);
  if (!acr || !acrValues.split(' ').includes(acr))
    throw new SsoRefused('acr', `acr ${acr ?? '(none)'} is not one of ${acrValues}`);
}
