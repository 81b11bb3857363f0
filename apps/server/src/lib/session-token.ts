import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** base64url without padding, as a JWS compact serialisation writes each part. */
const PART = /^[A-Za-z0-9_-]+$/;

function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The claims of an HS256 session token (as jose's SignJWT writes it), or null when the token is
 * malformed, not HS256, wrongly signed, expired or not yet valid.
 *
 * Checked with node:crypto's HMAC, synchronously: jose's jwtVerify goes through WebCrypto, whose
 * every call is an asynchronous job handed to another thread and back, on every signed-in request
 * (a visible share of a grid page's CPU). The checks are jose's for these tokens: the signature first (compared in
 * constant time), then a header of exactly alg HS256 with no `crit` extensions, then `exp` (here
 * required), `nbf` and `iat` against `now` with no tolerance.
 */
export function verifySessionToken(
  token: string,
  secret: Uint8Array | KeyObject,
  now: Date,
): Record<string, unknown> | null {
  const claims = signedClaims(token, secret);
  return claims && inTime(claims, now) ? claims : null;
}

/** The claims of a well-formed token whose signature is right, whatever their times say. */
function signedClaims(token: string, secret: Uint8Array | KeyObject): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (!PART.test(header) || !PART.test(payload) || !PART.test(signature)) return null;
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const protectedHeader = jsonObject(header);
  if (!protectedHeader || protectedHeader.alg !== 'HS256' || 'crit' in protectedHeader) return null;
  const claims = jsonObject(payload);
  const { exp, nbf, iat } = claims ?? {};
  if (!claims || typeof exp !== 'number' || !Number.isFinite(exp)) return null;
  if (nbf !== undefined && typeof nbf !== 'number') return null;
  if (iat !== undefined && (typeof iat !== 'number' || !Number.isFinite(iat))) return null;
  return claims;
}

function inTime(claims: Record<string, unknown>, now: Date): boolean {
  const seconds = Math.floor(now.getTime() / 1000);
  return (claims.exp as number) > seconds && (claims.nbf === undefined || (claims.nbf as number) <= seconds);
}

/** Tokens whose signature has been checked, kept at most this many at a time. */
const CHECKED_TOKENS = 1000;

/**
 * `verifySessionToken` with one key, remembering the tokens whose signature it has already
 * checked: a console sends the same cookie with every call, and a token's signature cannot change
 * (the key only changes with a restart). Times are checked on every call, and the session row
 * behind the token is still read on every request, so a logout or an idle limit ends it at once.
 */
export class SessionTokenVerifier {
  private readonly key: KeyObject;
  private readonly checked = new Map<string, Record<string, unknown>>();

  constructor(secret: Uint8Array) {
    this.key = createSecretKey(secret);
  }

  verify(token: string, now: Date): Record<string, unknown> | null {
    let claims = this.checked.get(token);
    if (!claims) {
      const signed = signedClaims(token, this.key);
      if (!signed) return null;
      // Full: start again rather than keep a recency order on every request.
      if (this.checked.size >= CHECKED_TOKENS) this.checked.clear();
      this.checked.set(token, (claims = signed));
    }
    return inTime(claims, now) ? claims : null;
  }
}
