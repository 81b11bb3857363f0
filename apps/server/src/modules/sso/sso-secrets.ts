import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { SecretBox } from '../../lib/secret-box.js';
import { CLIENT_SECRET_PURPOSE, PRIVATE_JWK_PURPOSE } from '../auth/index.js';

/**
 * The one place the sealed columns of sso_configurations are turned into values and back, as
 * totp-secrets.ts is for TOTP secrets: the client secret (client_secret_basic) and the private key
 * Pathway signs its client assertions with (private_key_jwt). Both are sealed under the secrets
 * key with the column's name as associated data; the start-up check and `rotate-secrets-key`
 * (auth/secrets-at-rest.ts) open and re-seal them with the TOTP secrets.
 */

/** RSA: every provider takes RS256 client assertions (CIS2 and Entra included); the key may sign RS384/RS512/PS* too. */
const KEY_ALGORITHM = 'RS256';

export function sealClientSecret(secrets: SecretBox, secret: string): string {
  return secrets.seal(secret, CLIENT_SECRET_PURPOSE);
}

export function openClientSecret(secrets: SecretBox, sealed: string): string {
  return secrets.open(sealed, CLIENT_SECRET_PURPOSE);
}

/** A new key pair for private_key_jwt: the sealed private JWK to store (with its kid). */
export async function newSealedPrivateJwk(secrets: SecretBox): Promise<string> {
  const { privateKey } = await generateKeyPair(KEY_ALGORITHM, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  return secrets.seal(JSON.stringify(jwk), PRIVATE_JWK_PURPOSE);
}

export function openPrivateJwk(secrets: SecretBox, sealed: string): JWK {
  return JSON.parse(secrets.open(sealed, PRIVATE_JWK_PURPOSE)) as JWK;
}

/** The public half of a stored key, as the JWKS publishes it. */
export function publicJwkOf(privateJwk: JWK): JWK {
  const { kty, n, e, kid } = privateJwk;
  return { kty, n, e, kid, use: 'sig' };
}

/** The private key to sign client assertions with, for the algorithm the provider takes. */
export async function signingKeyOf(privateJwk: JWK, alg: string): Promise<CryptoKey> {
  return (await importJWK({ ...privateJwk, alg }, alg)) as CryptoKey;
}

/** RSA algorithms this key can sign with, in the order Pathway prefers them. */
export const RSA_SIGNING_ALGORITHMS = ['RS256', 'PS256', 'RS512', 'PS512', 'RS384', 'PS384'];
