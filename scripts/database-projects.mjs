#!/usr/bin/env node
// The last step of `npm test`: says which database projects the server tests ran on. Exits 1 when
// REQUIRE_POSTGRES_TESTS=true (as .ci/run sets it) and the PostgreSQL project did not run, so a
// CI run without TEST_DATABASE_URL fails instead of passing on PGlite alone.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const recordFile = path.resolve('node_modules/.cache/pathway/database-projects.json');
if (!existsSync(recordFile)) {
  console.error(
    'Database projects: no record of a Vitest run (apps/server/test/database-projects-reporter.ts)',
  );
  process.exit(1);
}
const record = JSON.parse(readFileSync(recordFile, 'utf8'));
const line = (name) => {
  const p = record[name];
  return p.files > 0
    ? `${name} ran ${p.files} files (${p.passed} tests passed, ${p.failed} failed)`
    : `${name} did not run`;
};
const postgresRan = record['server-postgres'].files > 0;
console.log(`Database projects: ${line('server-pglite')}; ${line('server-postgres')}`);
if (!postgresRan) {
  console.log(
    record.testDatabaseUrlSet
      ? 'The PostgreSQL project ran no file.'
      : 'The PostgreSQL project did not run: TEST_DATABASE_URL is not set (see docs/testing.md).',
  );
  if (process.env.REQUIRE_POSTGRES_TESTS === 'true') process.exit(1);
}
