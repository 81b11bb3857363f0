import { describe } from 'vitest';

export type TestDatabase = 'pglite' | 'postgres';

/** The database of the vitest project running this file (vitest.config.ts sets TEST_DB). */
export const testDatabase: TestDatabase = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A group of tests that holds for one database only, inside a file whose other tests run on both:
 * it is part of that database's project and not of the other's, so each of its tests runs once
 * and no run has a skipped test. A whole file for one database is named `*.pglite.test.ts` or
 * `*.postgres.test.ts` instead (vitest.config.ts gives it to that project alone).
 */
export function describeOn(database: TestDatabase, name: string, body: () => void): void {
  if (database === testDatabase) describe(name, body);
}
