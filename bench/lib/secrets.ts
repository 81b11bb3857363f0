import { randomBytes } from 'node:crypto';
import { SecretBox, parseSecretsKey } from '../../apps/server/src/lib/secret-box.js';

/**
 * One secrets key for the whole bench run (README, Secrets at rest), put in the environment so
 * every server and CLI the run starts inherits it, and the admins the bench makes directly in the
 * database are sealed with the key the server will open them with.
 */
export function benchSecretsKey(): string {
  process.env.SECRETS_KEY ??= randomBytes(32).toString('base64');
  return process.env.SECRETS_KEY;
}

export function benchSecretBox(): SecretBox {
  const key = parseSecretsKey(benchSecretsKey());
  if (!key) throw new Error('SECRETS_KEY is not a key');
  return new SecretBox(key);
}
