import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SECRETS_KEY_FORMAT, newSecretsKeyText, parseSecretsKey } from './secret-box.js';

/**
 * Where the secrets key comes from (config.ts decides, README: Secrets at rest):
 * - `env`: SECRETS_KEY itself;
 * - `file`: SECRETS_KEY_FILE, a file the operator provides (outside DATA_DIR);
 * - `default-file`: neither is set (embedded deployments only): `<DATA_DIR>.secrets-key`, beside
 *   the data directory rather than in it, so a copy of DATA_DIR (or a backup archive, which holds
 *   only DATA_DIR's database and media) does not carry the key. Created on the first start.
 */
export type SecretsKeySource =
  | { kind: 'env'; text: string }
  | { kind: 'file'; path: string }
  | { kind: 'default-file'; path: string };

/** The setting an operator changes, named in every error about the key. */
export function describeKeySource(source: SecretsKeySource): string {
  switch (source.kind) {
    case 'env':
      return 'SECRETS_KEY';
    case 'file':
      return `SECRETS_KEY_FILE (${source.path})`;
    case 'default-file':
      return `the key file ${source.path} (used while neither SECRETS_KEY nor SECRETS_KEY_FILE is set)`;
  }
}

export function defaultKeyFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.secrets-key`;
}

/** Reads a key file; a file that is missing or holds no valid key is an error naming the setting. */
export function readKeyFile(file: string, setting: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `${setting}: the key file ${file} does not exist`
        : `${setting}: the key file ${file} cannot be read (${code ?? (error as Error).message})`,
    );
  }
  const key = parseSecretsKey(text);
  if (!key) throw new Error(`${setting}: the key file ${file} does not hold a key (${SECRETS_KEY_FORMAT})`);
  return key;
}

/**
 * Writes a new random key to `file` (mode 0600), which must not exist yet, and answers it. The
 * key is written and synced under a temporary name and then linked into place, so the file
 * either does not exist or holds a whole key; of two processes creating it, one wins and the
 * other fails (EEXIST) rather than overwriting a key that may already seal data.
 */
export function createKeyFile(file: string): Buffer {
  const text = newSecretsKeyText();
  const temporary = `${file}.tmp-${randomBytes(4).toString('hex')}`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  syncDirectory(path.dirname(file));
  return parseSecretsKey(text)!;
}

/** Makes a rename or link in `dir` durable (a crash after it cannot bring the old name back). */
export function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every file system lets a directory be opened for syncing; the rename itself stands.
  }
}

/** The key of `source`, or undefined when it is the default file and that does not exist yet. */
export function loadSecretsKey(source: SecretsKeySource): Buffer | undefined {
  switch (source.kind) {
    case 'env': {
      const key = parseSecretsKey(source.text);
      if (!key) throw new Error(`SECRETS_KEY is not a key: it must be ${SECRETS_KEY_FORMAT}`);
      return key;
    }
    case 'file':
      return readKeyFile(source.path, 'SECRETS_KEY_FILE');
    case 'default-file':
      return existsSync(source.path) ? readKeyFile(source.path, describeKeySource(source)) : undefined;
  }
}
