import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase, runMigrations } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite project: a file holding a migrated embedded database (PGlite's dumpDataDir). */
    pgliteTemplate: string;
    /** PostgreSQL project: a migrated database each test file's database is copied from. */
    postgresTemplate: string;
  }
}

/**
 * Global setup of the server test projects: the database every test file starts from, migrated
 * once per run instead of once per file (harness.ts, process.ts copy it). It is made from the
 * migrations in the tree at run time, so it holds whatever they create; a role a migration makes
 * is the cluster's (PostgreSQL), and the embedded copy is the whole data directory.
 */
export default async function setup(project: TestProject) {
  if (project.name === 'server-pglite') {
    const handle = await openDatabase({});
    await runMigrations(handle);
    const dump = await handle.pglite!.dumpDataDir('none');
    await handle.close();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pathway-test-template-'));
    const file = path.join(dir, 'pglite.tar');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', file);
    return () => rmSync(dir, { recursive: true, force: true });
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (project.name === 'server-postgres' && adminUrl) {
    // A name of this run's own: other runs on the same cluster may have other migrations.
    const name = `pathway_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    try {
      await runMigrations(handle);
    } finally {
      // A database is copied only while nobody is connected to it.
      await handle.close();
    }
    project.provide('postgresTemplate', name);
    return () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  }
  return undefined;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
