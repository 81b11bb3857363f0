import { SecretBox } from '../../lib/secret-box.js';
import { newTotpSecret } from './totp.js';

/**
 * The one place `admin_users.totp_secret` is turned into a value to store and back: every write
 * of the column stores what `storedTotpSecret` (or `newStoredTotpSecret`) answers, every read
 * goes through `totpSecretOf`. What is stored is the base32 secret sealed under the secrets key
 * (lib/secret-box.ts), so a copy of the database cannot compute anyone's codes.
 */
export const TOTP_SECRET_PURPOSE = 'admin_users.totp_secret';

/** The value to store in admin_users.totp_secret for a base32 secret. */
export function storedTotpSecret(secrets: SecretBox, secretBase32: string): string {
  return secrets.seal(secretBase32, TOTP_SECRET_PURPOSE);
}

/** A new enrolment: the base32 secret to show the admin once, and the value to store. */
export function newStoredTotpSecret(secrets: SecretBox): { secret: string; stored: string } {
  const secret = newTotpSecret();
  return { secret, stored: storedTotpSecret(secrets, secret) };
}

/**
 * The base32 secret behind a stored value. A plain value (written by an older release, for
 * instance during a rolling upgrade on PostgreSQL) is read as it is; the next start seals it
 * (secrets-at-rest.ts). A sealed value that does not open throws a SecretBoxError.
 */
export function totpSecretOf(secrets: SecretBox, stored: string): string {
  return SecretBox.isSealed(stored) ? secrets.open(stored, TOTP_SECRET_PURPOSE) : stored;
}
