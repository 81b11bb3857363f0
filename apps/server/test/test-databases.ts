import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject, type ProvidedContext } from 'vitest';
// The types of what inject() reads are declared beside the global setups that provide them.
import type {} from './database-template.setup.js';
import type {} from './security/log-scan.setup.js';

/** What the run's global setup provided, or undefined outside a Vitest server project. */
export function provided<K extends keyof ProvidedContext>(key: K): ProvidedContext[K] | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

let pgliteTemplateRead: { file: string; blob: Blob } | undefined;
/** The migrated embedded database, read once per worker (the files of a worker share modules). */
export function pgliteTemplate(): Blob | undefined {
  const file = provided('pgliteTemplate');
  if (!file) return undefined;
  if (pgliteTemplateRead?.file !== file) pgliteTemplateRead = { file, blob: new Blob([readFileSync(file)]) };
  return pgliteTemplateRead.blob;
}

/**
 * A new database on the cluster at `adminUrl`, and how to drop it: `migrated` copies the run's
 * migrated template when there is one (else it is empty and the app migrates it); `empty` is what
 * a new installation, or an old release to upgrade, starts from.
 */
export async function createPostgresTestDatabase(
  adminUrl: string,
  prefix: string,
  start: 'migrated' | 'empty',
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const template = start === 'migrated' ? provided('postgresTemplate') : undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
