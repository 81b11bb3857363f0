import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { FULL_ACCESS, messages, type SsoConfig, type SsoConfigBody } from '@pathway/contract';
import type { Database } from '../../db/client.js';
import { adminUsers, ssoConfigurations, ssoEmailDomains } from '../../db/schema.js';
import { badRequest, conflict } from '../../lib/http-error.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { AuditService, type AuditActor } from '../audit/index.js';
import { newSealedPrivateJwk, openPrivateJwk, publicJwkOf, sealClientSecret } from './sso-secrets.js';

export type SsoSettings = typeof ssoConfigurations.$inferSelect;

/** The addresses an organisation registers at its provider, all on Pathway's public origin. */
export function pathwayAddresses(base: string) {
  return {
    redirect_uri: `${base}/api/sso/callback`,
    backchannel_logout_uri: `${base}/api/sso/backchannel-logout`,
    post_logout_redirect_uri: `${base}/login`,
    jwks_uri: `${base}/api/sso/jwks.json`,
  };
}

/** The settings of an organisation, or null when it has none. */
export async function settingsOf(db: Database, organisationId: number): Promise<SsoSettings | null> {
  const [row] = await db
    .select()
    .from(ssoConfigurations)
    .where(eq(ssoConfigurations.organisation_id, organisationId));
  return row ?? null;
}

/** The settings of the provider a work email domain signs in with, or null. */
export async function settingsForDomain(db: Database, domain: string): Promise<SsoSettings | null> {
  const [row] = await db
    .select({ settings: ssoConfigurations })
    .from(ssoEmailDomains)
    .innerJoin(ssoConfigurations, eq(ssoConfigurations.organisation_id, ssoEmailDomains.organisation_id))
    .where(eq(ssoEmailDomains.domain, domain));
  return row?.settings ?? null;
}

async function domainsOf(db: Database, organisationId: number): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoEmailDomains.domain })
    .from(ssoEmailDomains)
    .where(eq(ssoEmailDomains.organisation_id, organisationId))
    .orderBy(ssoEmailDomains.domain);
  return rows.map((r) => r.domain);
}

/** An organisation's settings as GET answers them: never a secret. */
export async function presentSettings(
  db: Database,
  organisationId: number,
  base: string,
): Promise<SsoConfig> {
  const row = await settingsOf(db, organisationId);
  return {
    organisation_id: organisationId,
    configured: row !== null,
    issuer: row?.issuer ?? null,
    client_id: row?.client_id ?? null,
    client_secret_set: Boolean(row?.client_secret),
    client_auth: (row?.client_auth as SsoConfig['client_auth']) ?? null,
    email_domains: row ? await domainsOf(db, organisationId) : [],
    role_claim: row?.role_claim ?? null,
    role_map: (row?.role_map ?? {}) as SsoConfig['role_map'],
    site_claim: row?.site_claim ?? null,
    jit: row?.jit ?? false,
    acr_values: row?.acr_values ?? null,
    scopes: row?.scopes ?? null,
    required: row?.required ?? false,
    break_glass: row?.break_glass ?? [],
    ...pathwayAddresses(base),
  };
}

/**
 * Saves an organisation's settings (PUT): the secret sealed, a private_key_jwt key made once, the
 * email domains claimed (each signs in with one organisation only), the break-glass accounts
 * checked, and the change recorded, all in one transaction.
 */
export async function saveSettings(
  db: Database,
  secrets: SecretBox,
  organisationId: number,
  body: SsoConfigBody,
  actor: AuditActor,
): Promise<void> {
  const existing = await settingsOf(db, organisationId);
  const domains = [...new Set(body.email_domains.map((d) => d.trim().toLowerCase()))];
  const breakGlass = [...new Set(body.break_glass.map((n) => n.trim().toLowerCase()))];
  const clientSecret =
    body.client_secret !== undefined
      ? sealClientSecret(secrets, body.client_secret)
      : (existing?.client_secret ?? null);
  if (body.client_auth === 'client_secret_basic' && !clientSecret)
    throw badRequest(messages.sso.secretRequired);

  const named = breakGlass.length
    ? await db
        .select({
          user_name: adminUsers.user_name,
          role: adminUsers.role,
          password_hash: adminUsers.password_hash,
        })
        .from(adminUsers)
        .where(
          and(
            eq(adminUsers.organisation_id, organisationId),
            inArray(sql`lower(${adminUsers.user_name})`, breakGlass),
          ),
        )
    : [];
  const missing = breakGlass.find((n) => !named.some((a) => a.user_name.toLowerCase() === n));
  if (missing) throw badRequest(messages.sso.breakGlassUnknown(missing));
  // Someone must be able to act when the provider is down: a full-access account with a password.
  if (body.required && !named.some((a) => a.role === FULL_ACCESS && a.password_hash !== ''))
    throw badRequest(messages.sso.breakGlassNeeded);

  const privateJwk =
    body.client_auth === 'private_key_jwt'
      ? (existing?.private_jwk ?? (await newSealedPrivateJwk(secrets)))
      : (existing?.private_jwk ?? null);

  await db.transaction(async (tx) => {
    if (domains.length > 0) {
      const [taken] = await tx
        .select({ domain: ssoEmailDomains.domain })
        .from(ssoEmailDomains)
        .where(
          and(inArray(ssoEmailDomains.domain, domains), ne(ssoEmailDomains.organisation_id, organisationId)),
        );
      if (taken) throw conflict(messages.sso.domainTaken(taken.domain));
    }
    const values = {
      // Exactly as the provider names itself: discovery compares it, trailing slash included.
      issuer: body.issuer.trim(),
      client_id: body.client_id.trim(),
      client_auth: body.client_auth,
      client_secret: body.client_auth === 'client_secret_basic' ? clientSecret : null,
      private_jwk: privateJwk,
      role_claim: body.role_claim,
      role_map: body.role_map,
      site_claim: body.site_claim ?? null,
      jit: body.jit,
      acr_values: body.acr_values ?? null,
      scopes: body.scopes ?? null,
      required: body.required,
      break_glass: breakGlass,
      updated_at: new Date(),
    };
    await tx
      .insert(ssoConfigurations)
      .values({ organisation_id: organisationId, ...values })
      .onConflictDoUpdate({ target: ssoConfigurations.organisation_id, set: values });
    await tx.delete(ssoEmailDomains).where(eq(ssoEmailDomains.organisation_id, organisationId));
    if (domains.length > 0)
      await tx
        .insert(ssoEmailDomains)
        .values(domains.map((domain) => ({ domain, organisation_id: organisationId })));
    await new AuditService(tx).record(
      actor,
      {
        action: 'sso.configure',
        // What changed in words, never the secret.
        detail: `provider ${values.issuer} (${body.client_auth}${body.client_secret !== undefined ? ', new client secret' : ''}); domains ${domains.join(', ') || 'none'}; just-in-time ${body.jit ? 'on' : 'off'}; ${body.required ? `required, break-glass ${breakGlass.join(', ')}` : 'not required'}`,
      },
      tx,
    );
  });
}

/** Every organisation's public key for private_key_jwt, for GET /api/sso/jwks.json. */
export async function publishedKeys(db: Database, secrets: SecretBox) {
  const rows = await db
    .select({ private_jwk: ssoConfigurations.private_jwk })
    .from(ssoConfigurations)
    .where(
      and(
        eq(ssoConfigurations.client_auth, 'private_key_jwt'),
        sql`${ssoConfigurations.private_jwk} is not null`,
      ),
    );
  return { keys: rows.map((r) => publicJwkOf(openPrivateJwk(secrets, r.private_jwk!))) };
}
