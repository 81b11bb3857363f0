import { isLoopbackHost, type SsoTestResult } from '@pathway/contract';
import { RSA_SIGNING_ALGORITHMS } from './sso-secrets.js';

const TIMEOUT_MS = 10_000;

type Check = SsoTestResult['checks'][number];

/** Why a request to the provider failed, in words. */
function networkProblem(error: unknown, url: string): string {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { name, code } = e as { name?: string; code?: string };
    if (name === 'TimeoutError' || name === 'AbortError')
      return `${url} did not answer within ${TIMEOUT_MS / 1000} seconds`;
    if (code === 'ECONNREFUSED')
      return `Nothing answers at ${url} (connection refused): is the issuer's address right, and the provider running?`;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return `The name in ${url} could not be found (DNS): check the issuer's spelling, and that this server can resolve it`;
    if (code && /CERT|SSL|TLS/.test(code))
      return `The TLS certificate of ${url} was not accepted (${code}): the provider's certificate must be valid for its name`;
    if (code) return `${url} could not be reached (${code})`;
  }
  return `${url} could not be reached`;
}

/** A fetch of a JSON document from the provider: the document, or a sentence saying what went wrong. */
async function fetchJson(url: string): Promise<{ json: Record<string, unknown> } | { problem: string }> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return { problem: networkProblem(error, url) };
  }
  if (response.status >= 300 && response.status < 400)
    return {
      problem: `${url} redirects elsewhere (HTTP ${response.status}); the issuer must be the provider's own address`,
    };
  if (response.status !== 200)
    return {
      problem: `${url} answered HTTP ${response.status} instead of the document: is the issuer right?`,
    };
  try {
    const json: unknown = await response.json();
    if (json && typeof json === 'object' && !Array.isArray(json))
      return { json: json as Record<string, unknown> };
  } catch {
    // Said below.
  }
  return { problem: `${url} did not answer a JSON object` };
}

function usableUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  } catch {
    return false;
  }
}

function list(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * "Test connection": fetches the provider's discovery document and keys, and says in words what
 * would stop sign-in (or what is only worth knowing, such as the absence of RP-initiated logout).
 * Nothing is stored and nobody is signed in.
 */
export async function testConnection(settings: {
  issuer: string;
  client_auth: string;
  acr_values: string | null;
}): Promise<SsoTestResult> {
  const checks: Check[] = [];
  const add = (check: string, ok: boolean, detail: string) => checks.push({ check, ok, detail });
  const discoveryUrl = `${settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const verdict = (): SsoTestResult => {
    const failed = checks.filter((c) => !c.ok);
    return {
      ok: failed.length === 0,
      message:
        failed.length === 0
          ? 'The provider can be used: its discovery document and keys are as single sign-on needs them.'
          : `Single sign-on would not work: ${failed.map((c) => c.detail).join(' ')}`,
      checks,
    };
  };

  const discovered = await fetchJson(discoveryUrl);
  if ('problem' in discovered) {
    add('discovery', false, discovered.problem);
    return verdict();
  }
  const doc = discovered.json;
  add('discovery', true, `Found the discovery document at ${discoveryUrl}.`);
  add(
    'issuer',
    doc.issuer === settings.issuer,
    doc.issuer === settings.issuer
      ? 'The document names the same issuer.'
      : `The document names its issuer ${JSON.stringify(doc.issuer)}, not ${JSON.stringify(settings.issuer)}: set the issuer to exactly what the provider calls itself.`,
  );
  for (const [field, what] of [
    ['authorization_endpoint', 'where staff are sent to sign in'],
    ['token_endpoint', 'where Pathway exchanges the code'],
    ['jwks_uri', 'the keys its ID tokens are signed with'],
  ] as const) {
    const ok = usableUrl(doc[field]);
    add(field, ok, ok ? `It gives ${field} (${what}).` : `It gives no usable https ${field} (${what}).`);
  }
  const responseTypes = list(doc.response_types_supported);
  add(
    'authorization code',
    !responseTypes || responseTypes.includes('code'),
    !responseTypes || responseTypes.includes('code')
      ? 'It supports the authorization code flow.'
      : 'It does not offer the authorization code flow (response type "code").',
  );
  const pkce = list(doc.code_challenge_methods_supported);
  add(
    'PKCE',
    !pkce || pkce.includes('S256'),
    !pkce
      ? 'It does not say whether it supports PKCE; Pathway sends S256 anyway, which providers without it ignore.'
      : pkce.includes('S256')
        ? 'It supports PKCE (S256).'
        : 'It does not support PKCE with S256.',
  );
  const methods = list(doc.token_endpoint_auth_methods_supported) ?? ['client_secret_basic'];
  add(
    'client authentication',
    methods.includes(settings.client_auth),
    methods.includes(settings.client_auth)
      ? `It accepts ${settings.client_auth}.`
      : `It does not accept ${settings.client_auth}; it accepts ${methods.join(', ')}.`,
  );
  if (settings.client_auth === 'private_key_jwt') {
    const algs = list(doc.token_endpoint_auth_signing_alg_values_supported);
    const ok = !algs || RSA_SIGNING_ALGORITHMS.some((a) => algs.includes(a));
    add(
      'client assertion',
      ok,
      ok
        ? 'It accepts RSA-signed client assertions, as Pathway makes them.'
        : `It takes client assertions signed with ${algs.join(', ')} only; Pathway signs with RSA (RS256, PS256, RS512).`,
    );
  }
  if (settings.acr_values) {
    const offered = list(doc.acr_values_supported);
    const asked = settings.acr_values.split(' ');
    const missing = offered ? asked.filter((a) => !offered.includes(a)) : [];
    add(
      'acr values',
      missing.length === 0,
      missing.length === 0
        ? offered
          ? `It offers the acr values asked for (${asked.join(', ')}).`
          : 'It does not list its acr values; Pathway will still check the acr of each sign-in.'
        : `It does not offer ${missing.join(', ')} (it offers ${offered!.join(', ') || 'none'}).`,
    );
  }
  add(
    'sign-out',
    true,
    usableUrl(doc.end_session_endpoint)
      ? 'It offers RP-initiated logout: signing out of Pathway signs out of the provider too.'
      : 'It offers no end_session_endpoint: signing out of Pathway will not sign out of the provider.',
  );
  add(
    'back-channel logout',
    true,
    doc.backchannel_logout_supported === true
      ? "It supports back-channel logout: register Pathway's back-channel logout URI so a sign-out there ends Pathway sessions."
      : 'It does not say it supports back-channel logout: a sign-out at the provider will not end Pathway sessions.',
  );
  if (usableUrl(doc.jwks_uri)) {
    const keys = await fetchJson(doc.jwks_uri as string);
    const count = 'json' in keys && Array.isArray(keys.json.keys) ? keys.json.keys.length : 0;
    add(
      'keys',
      count > 0,
      'problem' in keys
        ? keys.problem
        : count > 0
          ? `Its key set holds ${count} key(s).`
          : 'Its key set holds no keys.',
    );
  }
  return verdict();
}
