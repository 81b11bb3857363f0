import { configDefaults, defineConfig } from 'vitest/config';

// API tests run against PGlite always, and against PostgreSQL as well when TEST_DATABASE_URL is
// set (CI sets it): the same files, once per database. A file that holds for one database only is
// named `*.pglite.test.ts` or `*.postgres.test.ts` and belongs to that project alone; one group
// of tests inside a shared file uses `describeOn` (apps/server/test/database-project.ts). So every
// test runs in the project it is for, and no run has a skipped test.
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
      {
        test: {
          name: 'server-pglite',
          ...serverTests,
          exclude: [...configDefaults.exclude, '**/*.postgres.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'server-postgres',
                ...serverTests,
                exclude: [...configDefaults.exclude, '**/*.pglite.test.ts'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
