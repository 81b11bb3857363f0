import * as oidc from 'openid-client';
import { isLoopbackHost, type SsoRefusal } from '@pathway/contract';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { RSA_SIGNING_ALGORITHMS, openClientSecret, openPrivateJwk, signingKeyOf } from './sso-secrets.js';

/** What the client library needs of an organisation's settings (a row of sso_configurations). */
export interface ProviderSettings {
  issuer: string;
  client_id: string;
  client_auth: string;
  client_secret: string | null;
  private_jwk: string | null;
}

/** The provider's answers are waited for this long (discovery, keys, the token endpoint). */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** A refusal of the flow: the reason the sign-in page shows, and what happened, for the log and audit. */
export class SsoRefused extends Error {
  constructor(
    readonly reason: SsoRefusal,
    /** A short description without tokens or secrets (error codes and claim names only). */
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'SsoRefused';
  }
}

/**
 * Discovers the provider and makes the client configuration, with openid-client (panva's certified
 * relying party library): every check of the flow is the library's. http:// is allowed only for a
 * provider on this machine (isLoopbackHost), as the settings' validation allows it. The library
 * judges token times by the application's clock (its `clockSkew`), so a clock moved by the
 * operator or a test moves them too.
 */
export async function discoverProvider(
  settings: ProviderSettings,
  secrets: SecretBox,
  clock: Clock,
): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  const execute =
    issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname) ? [oidc.allowInsecureRequests] : [];
  const metadata: Partial<oidc.ClientMetadata> = {
    [oidc.clockSkew]: Math.round((clock.now().getTime() - Date.now()) / 1000),
  };
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(issuer, settings.client_id, metadata, undefined, {
      execute,
      timeout: PROVIDER_TIMEOUT_SECONDS,
    });
  } catch (error) {
    throw refusalOf(error);
  }
  // The client's authentication depends on what the provider takes (its assertion algorithms), so
  // the configuration is made again with it, and the same allowances.
  const auth = await clientAuthOf(settings, config.serverMetadata(), secrets);
  const configured = new oidc.Configuration(config.serverMetadata(), settings.client_id, metadata, auth);
  for (const allow of execute) allow(configured);
  // The ID token's signature is checked too, though it comes straight from the token endpoint
  // (OpenID Connect would let TLS stand in for it): a provider's key, not the connection, vouches for it.
  oidc.enableNonRepudiationChecks(configured);
  configured.timeout = PROVIDER_TIMEOUT_SECONDS;
  return configured;
}

/** The client authentication of the settings, for what the provider takes. */
async function clientAuthOf(
  settings: ProviderSettings,
  server: oidc.ServerMetadata,
  secrets: SecretBox,
): Promise<oidc.ClientAuth> {
  if (settings.client_auth === 'private_key_jwt') {
    if (!settings.private_jwk) throw new SsoRefused('response', 'no private key stored for private_key_jwt');
    const jwk = openPrivateJwk(secrets, settings.private_jwk);
    const offered = server.token_endpoint_auth_signing_alg_values_supported;
    const alg = offered ? RSA_SIGNING_ALGORITHMS.find((a) => offered.includes(a)) : 'RS256';
    if (!alg) throw new SsoRefused('response', 'the provider takes no RSA client assertion');
    return oidc.PrivateKeyJwt({ key: await signingKeyOf(jwk, alg), kid: jwk.kid });
  }
  if (!settings.client_secret) throw new SsoRefused('response', 'no client secret stored');
  return oidc.ClientSecretBasic(openClientSecret(secrets, settings.client_secret));
}

/** Whether a failure means the provider could not be reached or answered no OpenID Connect at all. */
export function isUnreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { name, code, message } = e as { name?: string; code?: string; message?: string };
    if (name === 'TimeoutError' || name === 'AbortError' || name === 'ConnectTimeoutError') return true;
    if (
      code &&
      /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|UND_ERR_)/.test(code)
    )
      return true;
    if (name === 'TypeError' && message === 'fetch failed') return true;
    if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') return true;
  }
  return false;
}

/** Error codes along a chain of causes (the library wraps its own errors). */
function codesOf(error: unknown): { codes: string[]; claim?: string; attribute?: string; alg: boolean } {
  const codes: string[] = [];
  let claim: string | undefined;
  let attribute: string | undefined;
  let alg = false;
  const seen = new Set<unknown>();
  for (
    let e: unknown = error;
    e && typeof e === 'object' && !seen.has(e);
    e = (e as { cause?: unknown }).cause
  ) {
    seen.add(e);
    const {
      code,
      claim: c,
      attribute: a,
      header,
    } = e as {
      code?: unknown;
      claim?: unknown;
      attribute?: unknown;
      header?: unknown;
    };
    if (typeof code === 'string') codes.push(code);
    if (typeof c === 'string') claim ??= c;
    if (typeof a === 'string') attribute ??= a;
    // The library refuses an algorithm it was not told to accept (`none` among them) with the
    // header as the cause, and a signature that does not verify with the key and signature.
    if (header && typeof header === 'object' && 'alg' in header) alg = true;
    if ('signature' in e && 'key' in e) alg = true;
  }
  return { codes, claim, attribute, alg };
}

/**
 * The refusal a failure of the library stands for, in the words of the sign-in page. Only error
 * codes, claim names and the provider's error code are kept: never a message that may quote a
 * token.
 */
export function refusalOf(error: unknown): SsoRefused {
  if (error instanceof SsoRefused) return error;
  if (error instanceof oidc.AuthorizationResponseError)
    return new SsoRefused('provider_refused', `the provider answered ${safeCode(error.error)}`);
  if (error instanceof oidc.ResponseBodyError) {
    return error.error === 'invalid_grant'
      ? new SsoRefused('code', 'the token endpoint refused the code (invalid_grant)')
      : new SsoRefused('response', `the token endpoint answered ${safeCode(error.error)}`);
  }
  if (isUnreachable(error))
    return new SsoRefused('provider_unreachable', 'the provider could not be reached');
  const { codes, claim, attribute, alg } = codesOf(error);
  const has = (code: string) => codes.includes(code);
  const what = `${codes.join(' < ')}${claim ? ` (claim ${claim})` : ''}${attribute ? ` (${attribute})` : ''}`;
  if (has('OAUTH_JWT_CLAIM_COMPARISON_FAILED') || has('OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED')) {
    const name = claim ?? attribute;
    if (name === 'iss' || codes.some((c) => c === 'OAUTH_INVALID_SERVER_METADATA'))
      return new SsoRefused('issuer', what);
    if (name === 'aud' || name === 'azp') return new SsoRefused('audience', what);
    if (name === 'nonce') return new SsoRefused('nonce', what);
    if (name === 'state') return new SsoRefused('state', what);
    if (name === 'auth_time') return new SsoRefused('expired', what);
  }
  if (has('OAUTH_JWT_TIMESTAMP_CHECK_FAILED')) return new SsoRefused('expired', what);
  if (
    alg ||
    has('OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED') ||
    has('ERR_JWS_SIGNATURE_VERIFICATION_FAILED') ||
    has('OAUTH_KEY_SELECTION_FAILED') ||
    has('OAUTH_UNSUPPORTED_OPERATION')
  )
    return new SsoRefused('signature', what);
  if (has('OAUTH_INVALID_RESPONSE') && claim === 'iss') return new SsoRefused('issuer', what);
  return new SsoRefused('response', what || 'an unexpected answer');
}

/** A provider's error code as it may be written down: its letters only. */
function safeCode(code: unknown): string {
  return typeof code === 'string' ? code.replace(/[^a-z_]/gi, '').slice(0, 60) || 'an error' : 'an error';
}
