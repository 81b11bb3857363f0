import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (README, Security model): a value the database must hold but a copy of the
 * database must not reveal (TOTP secrets) is stored sealed with AES-256-GCM under the secrets key,
 * which lives outside the database (SECRETS_KEY, SECRETS_KEY_FILE, or the generated key file
 * beside DATA_DIR). The key never meets the cipher directly: HKDF-SHA256 derives one key for
 * sealing, one for the key id and one per other purpose (the session signing key), so no two
 * uses share a key.
 *
 * A sealed value is one line of text, so it fits the column that held the plain value:
 *
 *     v1:<key id>:<iv>:<tag>:<ciphertext>      (each part base64url)
 *
 * `v1` is the format (AES-256-GCM, 96-bit random IV, 128-bit tag, the purpose as associated
 * data); the key id (8 characters, derived from the key, revealing nothing of it) says which key
 * sealed it, so a wrong key is told apart from a damaged value and a rotation can be checked row
 * by row. The purpose ("admin_users.totp_secret") is authenticated too: a value sealed for one
 * column does not open as another.
 */
export const SECRETS_KEY_BYTES = 32;
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A key as written in SECRETS_KEY or a key file: 32 bytes as 64 hex characters, or as base64 or
 * base64url (`openssl rand -base64 32`). Surrounding white space (a file's newline) is ignored.
 */
export function parseSecretsKey(text: string): Buffer | null {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const bytes = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === SECRETS_KEY_BYTES) return bytes;
  }
  return null;
}

export const SECRETS_KEY_FORMAT =
  '32 random bytes written as base64 (`openssl rand -base64 32`) or as 64 hex characters (`openssl rand -hex 32`)';

/** A new random key, written as a key file holds it (base64 and a newline). */
export function newSecretsKeyText(): string {
  return `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`;
}

/** Why a sealed value did not open. */
export type OpenFailure = 'other-key' | 'not-authentic' | 'malformed';

export class SecretBoxError extends Error {
  constructor(
    readonly reason: OpenFailure,
    message: string,
    /** The id of the key that sealed the value, when the value says so. */
    readonly sealedWith?: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

function derive(key: Buffer, info: string, bytes: number): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `pathway ${info}`, bytes));
}

export class SecretBox {
  /** Names the key in every value it seals; derived, so it says nothing about the key itself. */
  readonly keyId: string;
  private readonly sealingKey: Buffer;

  constructor(private readonly key: Buffer) {
    if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secrets key is ${SECRETS_KEY_BYTES} bytes`);
    this.sealingKey = derive(key, 'aes-256-gcm v1', 32);
    this.keyId = derive(key, 'key id v1', 6).toString('base64url');
  }

  /** True for a value in the sealed format (a base32 TOTP secret never contains a colon). */
  static isSealed(value: string): boolean {
    return value.startsWith(`${FORMAT}:`);
  }

  /** The id of the key a sealed value names, or undefined for a value not in the format. */
  static keyIdOf(value: string): string | undefined {
    return SecretBox.isSealed(value) ? value.split(':')[1] : undefined;
  }

  seal(plain: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealingKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
    return [FORMAT, this.keyId, ...parts].join(':');
  }

  /** The plain value, or a SecretBoxError saying whether the key, the value or its format is wrong. */
  open(sealed: string, purpose: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 5 || parts[0] !== FORMAT)
      throw new SecretBoxError('malformed', 'the value is not in the sealed format');
    const [, keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    if (keyId !== this.keyId)
      throw new SecretBoxError(
        'other-key',
        `the value was sealed with key ${keyId}, this key is ${this.keyId}`,
        keyId,
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealingKey, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        'not-authentic',
        `the value names key ${keyId} but does not authenticate under it (altered, or sealed for another purpose)`,
        keyId,
      );
    }
  }

  /** A key for another use (the session signing key), bound to this key and to `purpose`. */
  deriveKey(purpose: string, bytes = 32): Uint8Array {
    return new Uint8Array(derive(this.key, purpose, bytes));
  }
}
