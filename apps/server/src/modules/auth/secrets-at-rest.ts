import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { adminUsers, serverSecrets, ssoConfigurations } from '../../db/schema.js';
import { SecretBox, SecretBoxError } from '../../lib/secret-box.js';
import {
  createKeyFile,
  describeKeySource,
  loadSecretsKey,
  readKeyFile,
  syncDirectory,
  type SecretsKeySource,
} from '../../lib/secrets-key.js';
import { storedTotpSecret, totpSecretOf } from './totp-secrets.js';

/**
 * The associated data the single sign-on module seals its columns with (sso/sso-secrets.ts): named
 * here, where the start-up check and the rotation open them, so that auth needs nothing of sso.
 */
export const CLIENT_SECRET_PURPOSE = 'sso_configurations.client_secret';
export const PRIVATE_JWK_PURPOSE = 'sso_configurations.private_jwk';

/**
 * The sealed columns besides the TOTP secrets: each organisation's single sign-on client secret
 * and private key. Opened at start and re-sealed by a rotation with the rest; never stored plain.
 */
const SSO_SEALED = [
  { column: 'client_secret', purpose: CLIENT_SECRET_PURPOSE },
  { column: 'private_jwk', purpose: PRIVATE_JWK_PURPOSE },
] as const;

async function ssoSealedRows(db: Database) {
  return db
    .select({
      id: ssoConfigurations.organisation_id,
      client_secret: ssoConfigurations.client_secret,
      private_jwk: ssoConfigurations.private_jwk,
    })
    .from(ssoConfigurations)
    .orderBy(ssoConfigurations.organisation_id)
    .for('update');
}

/**
 * Start-up and rotation of the secrets at rest (README, Secrets at rest).
 *
 * The database holds, besides the sealed TOTP secrets, one sealed known value (`secrets-key-check`
 * in server_secrets, not itself a secret): it binds the database to its key from the first start,
 * so an instance given another key fails to start even before any admin exists, and a missing
 * key is noticed whenever anything was ever sealed.
 *
 * 0.1.0 kept the session signing key in server_secrets (`session-jwt`) in the clear; it is
 * deleted at start, the key now being derived from the secrets key (sessions.ts).
 */
export const KEY_CHECK = 'secrets-key-check';
const KEY_CHECK_PURPOSE = 'server_secrets.secrets-key-check';
const KEY_CHECK_VALUE = 'pathway secrets key check';
const PLAIN_SESSION_KEY = 'session-jwt';
/** Serialises start-up sealing and rotation across instances (any fixed number; see db/client.ts). */
const SECRETS_LOCK = 7_311_003;

const README = 'See docs/security.md, Secrets at rest.';

/** A problem with the secrets key that must stop the start (or the command): the message says what to set. */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

export interface SecretsAtRest {
  secrets: SecretBox;
  /** Plain TOTP secrets sealed by this start (the upgrade from 0.1.0). */
  sealed: number;
  /** True when 0.1.0's plain session signing key was found and deleted. */
  plainSessionKeyRemoved: boolean;
  /** True when the default key file was created by this start. */
  keyCreated: boolean;
}

async function keyCheckOf(db: Database): Promise<string | undefined> {
  const [row] = await db
    .select({ value: serverSecrets.value })
    .from(serverSecrets)
    .where(eq(serverSecrets.name, KEY_CHECK));
  return row?.value;
}

/** Whether anything in the database was sealed (by whatever key). */
async function anythingSealed(db: Database): Promise<string | undefined> {
  const check = await keyCheckOf(db);
  if (check) return SecretBox.keyIdOf(check) ?? 'unknown';
  const [row] = await db
    .select({ value: adminUsers.totp_secret })
    .from(adminUsers)
    .where(sql`${adminUsers.totp_secret} like 'v1:%'`)
    .limit(1);
  return row ? (SecretBox.keyIdOf(row.value) ?? 'unknown') : undefined;
}

function opensCheck(box: SecretBox, check: string): boolean {
  try {
    return box.open(check, KEY_CHECK_PURPOSE) === KEY_CHECK_VALUE;
  } catch {
    return false;
  }
}

function pendingKeyFile(file: string): string {
  return `${file}.new`;
}

/**
 * A rotation of the default key file writes the new key beside it (`.new`), commits, then renames
 * it into place. A crash between the commit and the rename leaves the database sealed under the
 * `.new` key: it is moved into place now. A `.new` key that does not open the database's key
 * check is what a rotation left before it committed: removed.
 */
async function finishInterruptedRotation(db: Database, file: string): Promise<boolean> {
  const pending = pendingKeyFile(file);
  if (!existsSync(pending)) return false;
  let key: Buffer | undefined;
  try {
    key = readKeyFile(pending, 'the rotated key file');
  } catch {
    key = undefined;
  }
  const check = await keyCheckOf(db);
  if (key && check && opensCheck(new SecretBox(key), check)) {
    renameSync(pending, file);
    syncDirectory(path.dirname(file));
    return true;
  }
  rmSync(pending, { force: true });
  return false;
}

/**
 * Opens the secrets key at start and brings the stored secrets under it: checks that the key
 * opens everything already sealed, seals what is still plain (TOTP secrets of 0.1.0), and deletes
 * 0.1.0's plain session key. One transaction under an advisory lock, so two instances starting at
 * once on PostgreSQL take turns and the second finds nothing left to do; a wrong or missing key
 * changes nothing and throws a SecretsKeyError naming the setting.
 */
export async function openSecretsAtRest(db: Database, source: SecretsKeySource): Promise<SecretsAtRest> {
  if (source.kind === 'default-file') await finishInterruptedRotation(db, source.path);
  let key = loadSecretsKey(source);
  let keyCreated = false;
  if (!key) {
    // Only the default key file is ever created, and only for a database that has nothing sealed.
    if (source.kind !== 'default-file') throw new Error('a configured secrets key was not loaded');
    const sealedWith = await anythingSealed(db);
    if (sealedWith) {
      throw new SecretsKeyError(
        `This database holds secrets sealed with secrets key ${sealedWith}, but there is no key: ${describeKeySource(source)} does not exist. ` +
          'The key is kept outside the database and is not in backups: put the key file back there (its copy from when this ' +
          `database was first started), or set SECRETS_KEY or SECRETS_KEY_FILE to that key. Nothing was changed. ${README}`,
      );
    }
    key = createKeyFile(source.path);
    keyCreated = true;
  }
  const secrets = new SecretBox(key);
  const result = await sealStoredSecrets(db, secrets, describeKeySource(source));
  return { secrets, keyCreated, ...result };
}

function wrongKey(
  error: SecretBoxError,
  secrets: SecretBox,
  setting: string,
  where: string,
): SecretsKeyError {
  if (error.reason === 'other-key') {
    return new SecretsKeyError(
      `The secrets key from ${setting} (key id ${secrets.keyId}) is not the key this database's secrets are sealed with ` +
        `(key id ${error.sealedWith}, found in ${where}). Set SECRETS_KEY or SECRETS_KEY_FILE to that key, ` +
        `the same on every instance. Nothing was changed. ${README}`,
    );
  }
  return new SecretsKeyError(
    `A secret in ${where} does not open with the secrets key from ${setting} (key id ${secrets.keyId}): ${error.message}. ` +
      `Nothing was changed. ${README}`,
  );
}

async function sealStoredSecrets(
  db: Database,
  secrets: SecretBox,
  setting: string,
): Promise<{ sealed: number; plainSessionKeyRemoved: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SECRETS_LOCK})`);
    const check = await keyCheckOf(tx);
    if (check) {
      try {
        if (secrets.open(check, KEY_CHECK_PURPOSE) !== KEY_CHECK_VALUE)
          throw new Error('unexpected key check');
      } catch (error) {
        if (error instanceof SecretBoxError)
          throw wrongKey(error, secrets, setting, `server_secrets.${KEY_CHECK}`);
        throw error;
      }
    } else {
      await tx
        .insert(serverSecrets)
        .values({ name: KEY_CHECK, value: secrets.seal(KEY_CHECK_VALUE, KEY_CHECK_PURPOSE) });
    }
    const rows = await tx
      .select({ id: adminUsers.admin_user_id, stored: adminUsers.totp_secret })
      .from(adminUsers)
      .orderBy(adminUsers.admin_user_id)
      .for('update');
    let sealed = 0;
    for (const row of rows) {
      if (SecretBox.isSealed(row.stored)) {
        try {
          totpSecretOf(secrets, row.stored);
        } catch (error) {
          if (error instanceof SecretBoxError)
            throw wrongKey(error, secrets, setting, `admin_users.totp_secret of admin ${row.id}`);
          throw error;
        }
        continue;
      }
      await tx
        .update(adminUsers)
        .set({ totp_secret: storedTotpSecret(secrets, row.stored) })
        .where(eq(adminUsers.admin_user_id, row.id));
      sealed += 1;
    }
    for (const row of await ssoSealedRows(tx)) {
      for (const { column, purpose } of SSO_SEALED) {
        const stored = row[column];
        if (stored === null) continue;
        try {
          secrets.open(stored, purpose);
        } catch (error) {
          if (error instanceof SecretBoxError)
            throw wrongKey(error, secrets, setting, `sso_configurations.${column} of organisation ${row.id}`);
          throw error;
        }
      }
    }
    const removed = await tx
      .delete(serverSecrets)
      .where(eq(serverSecrets.name, PLAIN_SESSION_KEY))
      .returning({ name: serverSecrets.name });
    return { sealed, plainSessionKeyRemoved: removed.length > 0 };
  });
}

/**
 * Re-seals every secret under `to`, in one transaction: the key check, every TOTP secret and
 * every single sign-on secret (each opened with `from` first, so a value that does not open stops
 * everything). Answers how many TOTP secrets it re-sealed.
 */
export async function resealSecrets(db: Database, from: SecretBox, to: SecretBox): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SECRETS_LOCK})`);
    await tx
      .insert(serverSecrets)
      .values({ name: KEY_CHECK, value: to.seal(KEY_CHECK_VALUE, KEY_CHECK_PURPOSE) })
      .onConflictDoUpdate({
        target: serverSecrets.name,
        set: { value: to.seal(KEY_CHECK_VALUE, KEY_CHECK_PURPOSE) },
      });
    const rows = await tx
      .select({ id: adminUsers.admin_user_id, stored: adminUsers.totp_secret })
      .from(adminUsers)
      .for('update');
    for (const row of rows) {
      const secret = totpSecretOf(from, row.stored);
      await tx
        .update(adminUsers)
        .set({ totp_secret: storedTotpSecret(to, secret) })
        .where(eq(adminUsers.admin_user_id, row.id));
    }
    for (const row of await ssoSealedRows(tx)) {
      const resealed = Object.fromEntries(
        SSO_SEALED.map(({ column, purpose }) => {
          const stored = row[column];
          return [column, stored === null ? null : to.seal(from.open(stored, purpose), purpose)];
        }),
      );
      await tx.update(ssoConfigurations).set(resealed).where(eq(ssoConfigurations.organisation_id, row.id));
    }
    return rows.length;
  });
}

export interface RotationResult {
  previous_key_id: string;
  key_id: string;
  totp_secrets: number;
  /** Where the new key is now. */
  key_file: string;
  next_steps: string;
}

/**
 * `rotate-secrets-key` (commands.ts): a new key, every secret re-sealed under it in one
 * transaction, and the operator told what to change. With the default key file and no
 * `--new-key-file`, the key file itself is replaced: the new key goes to `<file>.new`, the
 * database commits, then `.new` is renamed over the file (a crash in between is finished at the
 * next start: finishInterruptedRotation). With `--new-key-file FILE`, the new key is read from
 * FILE, or generated into it when FILE does not exist, and the operator points the configuration
 * at it. Sessions are signed with a key derived from the secrets key, so they end with the old key.
 */
export async function rotateSecretsKey(
  db: Database,
  current: SecretBox,
  source: SecretsKeySource,
  newKeyFile: string | undefined,
): Promise<RotationResult> {
  if (!newKeyFile && source.kind !== 'default-file') {
    throw new SecretsKeyError(
      `The secrets key comes from ${describeKeySource(source)}: give --new-key-file <file> (outside DATA_DIR); ` +
        'the new key is read from that file, or generated into it when it does not exist, and you then set ' +
        'SECRETS_KEY_FILE (or SECRETS_KEY) to it on every instance.',
    );
  }
  const target = newKeyFile ?? pendingKeyFile((source as { path: string }).path);
  let key: Buffer;
  if (newKeyFile && existsSync(newKeyFile)) {
    key = readKeyFile(newKeyFile, '--new-key-file');
  } else {
    if (!newKeyFile) rmSync(target, { force: true }); // left by a rotation that never committed
    key = createKeyFile(target);
  }
  const next = new SecretBox(key);
  if (next.keyId === current.keyId) {
    throw new SecretsKeyError(
      '--new-key-file holds the key in use now: give a new key (or a file that does not exist yet, to generate one)',
    );
  }
  const count = await resealSecrets(db, current, next);
  const sessionsEnd =
    'Sessions signed with the old key end (unless SESSION_SECRET is set): staff sign in again.';
  if (!newKeyFile) {
    const file = (source as { path: string }).path;
    renameSync(target, file);
    syncDirectory(path.dirname(file));
    return {
      previous_key_id: current.keyId,
      key_id: next.keyId,
      totp_secrets: count,
      key_file: file,
      next_steps: `The key file ${file} now holds the new key: back it up (it is not in backups) and destroy copies of the old one once no backup you keep needs it. ${sessionsEnd}`,
    };
  }
  return {
    previous_key_id: current.keyId,
    key_id: next.keyId,
    totp_secrets: count,
    key_file: newKeyFile,
    next_steps:
      `Every secret is now sealed with the key in ${newKeyFile}. Before the next start, set SECRETS_KEY_FILE=${newKeyFile} ` +
      '(or SECRETS_KEY to its contents) on every instance, and restart every instance that is still running: one on the old key ' +
      `refuses sign-ins (503) until it is restarted with the new one. Back the key up; it is not in backups. ${sessionsEnd}`,
  };
}
