import { defineConfig } from 'vitest/config';

// API tests run against PGlite always, and against PostgreSQL as well when TEST_DATABASE_URL is
// set (CI sets it): the same files, once per database.
const serverTests = {
  include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
  environment: 'node' as const,
  // Generous: these tests run real ffmpeg, servers and databases on a 2-core machine, and must pass
  // with both cores busy (`stress --cpu 2` beside the suite). A limit only turns a hang into a
  // failure; a passing test never waits for it.
  testTimeout: 300_000,
  hookTimeout: 300_000,
  // Keeps every file's server logs and scans them for identifiable data and secrets at the end.
  globalSetup: ['apps/server/test/security/log-scan.setup.ts'],
};

export default defineConfig({
  test: {
    // Most server test time is waiting (ffmpeg, servers, databases, real processes): three files at
    // a time on 2 cores take the suite from 13 to about 8 minutes without starving any of them.
    maxWorkers: 3,
    projects: [
      'apps/web/vitest.config.ts',
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'server-pglite', ...serverTests, env: { TEST_DB: 'pglite' } } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { name: 'server-postgres', ...serverTests, env: { TEST_DB: 'postgres' } } }]
        : []),
    ],
  },
});
