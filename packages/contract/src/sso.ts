import { z } from 'zod';
import { idParam } from './common.js';
import { messages } from './messages.js';
import { roleSchema } from './roles.js';
import { SSO_CLIENT_AUTH_METHODS } from './sso-names.js';

export * from './sso-names.js';

/**
 * Single sign-on with an organisation's OpenID Connect provider (NHS CIS2, Microsoft Entra ID):
 * its settings, the answer of the "Test connection", and the calls of the sign-in flow.
 */

/** `https://`, or `http://` for a provider on this machine only (a development or test provider). */
function isIssuer(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.search || url.hash || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts an http:// issuer may name. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** A claim's name, or a path through objects and arrays (`nhsid_nrbac_roles.role_code`). */
const CLAIM = /^[A-Za-z0-9_:-]+(\.[A-Za-z0-9_:-]+)*$/;

const claimName = z
  .string({ error: messages.sso.claimInvalid })
  .trim()
  .max(200, { error: messages.sso.claimInvalid })
  .regex(CLAIM, { error: messages.sso.claimInvalid });

export const ssoClientAuth = z.enum(SSO_CLIENT_AUTH_METHODS);

export const ssoOrganisationParams = z.object({ id: idParam });

/** `PUT /api/organisations/{id}/sso`: the whole configuration (client_secret omitted: the stored one stays). */
export const ssoConfigBody = z
  .object({
    issuer: z
      .string({ error: messages.sso.issuerInvalid })
      .trim()
      .max(500, { error: messages.sso.issuerInvalid })
      .refine(isIssuer, { error: messages.sso.issuerInvalid })
      .describe(
        "The provider's issuer identifier; its discovery document is <issuer>/.well-known/openid-configuration",
      ),
    client_id: z.string().trim().min(1).max(500).describe("Pathway's client id at the provider"),
    client_secret: z
      .string()
      .min(1)
      .max(2000)
      .optional()
      .describe(
        'For client_secret_basic; stored sealed with the secrets key, never answered. Omitted: the stored one stays',
      ),
    client_auth: ssoClientAuth.describe(
      'client_secret_basic, or private_key_jwt with a key Pathway generates and publishes at GET /api/sso/jwks.json',
    ),
    email_domains: z
      .array(
        z
          .string({ error: messages.sso.domainInvalid })
          .trim()
          .toLowerCase()
          .regex(DOMAIN, { error: messages.sso.domainInvalid }),
      )
      .max(50)
      .describe('The work email domains whose staff sign in through this provider (nhs.net)'),
    role_claim: claimName.describe(
      'The claim carrying the role (roles, or a path such as nhsid_nrbac_roles.role_code)',
    ),
    role_map: z
      .record(z.string().trim().min(1).max(200), roleSchema)
      .refine((map) => Object.keys(map).length > 0 && Object.keys(map).length <= 200, {
        error: messages.sso.roleMapEmpty,
      })
      .describe('Claim value → full access or basic access; a person with values of both gets full access'),
    site_claim: claimName
      .nullable()
      .optional()
      .describe(
        "The claim carrying the admin's sites (each value a site's ODS code or name), if any: at every sign-in the admin is limited to the organisation's sites it names, and refused when it names none",
      ),
    jit: z.boolean().describe('Create an unknown person on their first sign-in (just in time)'),
    acr_values: z
      .string()
      .trim()
      .max(500)
      .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, { error: 'acr_values are values separated by single spaces' })
      .nullable()
      .optional()
      .describe("Asked for at every sign-in (CIS2: AAL3_ANY ...); the ID token's acr must be one of them"),
    scopes: z
      .string()
      .trim()
      .max(500)
      .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, { error: 'scopes are names separated by single spaces' })
      .nullable()
      .optional()
      .describe(
        'Scopes asked for beside openid, profile and email (CIS2: nationalrbacaccess, for its roles)',
      ),
    required: z.boolean().describe('Refuse password sign-in to everyone but the break-glass accounts'),
    break_glass: z
      .array(z.string().trim().min(1).max(200))
      .max(20)
      .describe('User names that keep password and code sign-in when single sign-on is required'),
  })
  .meta({ id: 'SsoConfigBody' });
export type SsoConfigBody = z.input<typeof ssoConfigBody>;

/** `GET /api/organisations/{id}/sso`: the configuration without its secrets, and what to register at the provider. */
export const ssoConfig = z
  .object({
    organisation_id: z.number().int(),
    configured: z.boolean().describe('False until the first PUT; the other settings are then null or empty'),
    issuer: z.string().nullable(),
    client_id: z.string().nullable(),
    client_secret_set: z.boolean().describe('Whether a client secret is stored (it is never answered)'),
    client_auth: ssoClientAuth.nullable(),
    email_domains: z.array(z.string()),
    role_claim: z.string().nullable(),
    role_map: z.record(z.string(), roleSchema),
    site_claim: z.string().nullable(),
    jit: z.boolean(),
    acr_values: z.string().nullable(),
    scopes: z.string().nullable(),
    required: z.boolean(),
    break_glass: z.array(z.string()),
    redirect_uri: z.string().describe('Register this redirect URI at the provider'),
    backchannel_logout_uri: z.string().describe('Register this back-channel logout URI at the provider'),
    post_logout_redirect_uri: z.string().describe('Register this post-logout redirect URI at the provider'),
    jwks_uri: z.string().describe('Where Pathway publishes its public keys (private_key_jwt)'),
  })
  .meta({ id: 'SsoConfig' });
export type SsoConfig = z.infer<typeof ssoConfig>;

/** `POST /api/organisations/{id}/sso/test`: the stored settings, or these (before saving them). */
export const ssoTestBody = z
  .object({
    issuer: ssoConfigBody.shape.issuer.optional(),
    client_auth: ssoClientAuth.optional(),
    acr_values: ssoConfigBody.shape.acr_values,
  })
  .meta({ id: 'SsoTestBody' });

export const ssoTestResult = z
  .object({
    ok: z.boolean().describe('True when sign-in can work with these settings'),
    message: z.string().describe('The verdict in words'),
    checks: z.array(
      z.object({
        check: z.string(),
        ok: z.boolean(),
        detail: z.string().describe('What was found, or what is wrong, in words'),
      }),
    ),
  })
  .meta({ id: 'SsoTestResult' });
export type SsoTestResult = z.infer<typeof ssoTestResult>;

/** `GET /api/sso/start?email=`: any text (a bad one comes back to the sign-in page with a message, not a 400). */
export const ssoStartQuery = z.object({
  email: z.string().max(320).optional().describe('The work email typed on the sign-in page'),
});

/** `GET /api/sso/lookup?email=`: whether the sign-in page sends this email's domain to a provider. */
export const ssoLookupQuery = z.object({ email: z.string().max(320) });
export const ssoLookupAnswer = z
  .object({ single_sign_on: z.boolean().describe('True: sign in through /api/sso/start?email=') })
  .meta({ id: 'SsoLookup' });

/** `GET /api/sso/callback`: what the provider sends back (checked by the client library, not by this schema). */
export const ssoCallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  session_state: z.string().max(500).optional(),
});

/** `POST /api/sso/backchannel-logout`, a form body as OpenID Connect Back-Channel Logout 1.0 says. */
export const backchannelLogoutBody = z
  .object({ logout_token: z.string().min(1).max(16_384) })
  .meta({ id: 'BackchannelLogout' });

export const jwksAnswer = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).meta({ id: 'Jwks' });
