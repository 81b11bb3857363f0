import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import DatabaseProjectsReporter from './apps/server/test/database-projects-reporter.js';

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
  // The files of a worker share one module graph instead of loading the server's (Fastify, Drizzle,
  // zod, the S3 SDK...) again in a new process for each file, which costs far more time and CPU
  // (docs/testing.md).
  // Each file still makes its own app, database and data directory (harness.ts), and closes them,
  // its logger's files included.
  isolate: false,
  // Keeps every file's server logs and scans them for identifiable data and secrets at the end;
  // builds the bundle `npm start` runs, for the tests that run it; migrates the database every
  // file's database is copied from.
  globalSetup: [
    'apps/server/test/security/log-scan.setup.ts',
    'apps/server/test/server-bundle.setup.ts',
    'apps/server/test/database-template.setup.ts',
  ],
};

/**
 * The files that take a quarter of a minute or more on the 2-core CI machine (real servers, ffmpeg,
 * 20,000 participants, property runs), with their seconds there (the slower of the two database
 * projects, a full Vitest run of 2026-11-28 under a load average of 5 to 10). They start first,
 * those of all projects together, so that none is left running alone at the end: a fresh clone has
 * no timings of earlier runs, and Vitest would otherwise run the projects one after the other, each
 * by file size. A file missing here (or moved) only starts later; nothing else depends on this
 * list.
 */
const SLOW_FILES: Record<string, number> = {
  'apps/server/src/demo/seed-demo.test.ts': 159,
  'apps/server/test/backup.test.ts': 93,
  // 137 s, of which about a minute the server's stop waiting for answers the load had left
  // unread (mixed-load.ts reads them now): 79 s alone against 133 s before (2026-12-07).
  'apps/server/test/resilience/mixed-load.pglite.test.ts': 80,
  'apps/server/test/security/secrets-at-rest.test.ts': 62,
  'apps/server/test/security/bad-input.test.ts': 61,
  // 267 s with 20,000 participants; with the gate and 2,000 it takes a third of that alone (23 s
  // against 74 s on PGlite, 2026-12-07), so an estimated 60 s in a full run.
  'apps/server/test/resilience/kill-adherence.test.ts': 60,
  'apps/server/src/modules/outcomes/due.property.test.ts': 56,
  'apps/server/test/resilience/scale-out.postgres.test.ts': 52,
  'apps/server/src/modules/reports/outcomes.property.test.ts': 43,
  'apps/server/test/security/authorization.test.ts': 32,
  'apps/server/src/modules/videos/media/thumbnails.test.ts': 30,
  'apps/server/test/operations.test.ts': 27,
  'apps/server/src/modules/videos/library/videos.test.ts': 25,
  'apps/server/src/modules/sso/sso.test.ts': 25,
  'apps/server/test/resilience/kill-push.test.ts': 21,
  'apps/server/test/security/throttling.test.ts': 20,
  'apps/server/test/security/request-origin.test.ts': 17,
  'apps/server/src/modules/adherence/adherence.property.test.ts': 17,
  'apps/web/src/features/admin/AddAdminDialog.test.tsx': 16,
  'apps/server/test/tls-proxy.test.ts': 15,
  'apps/server/src/modules/participants/export.test.ts': 15,
  'apps/web/src/app/router.test.tsx': 14,
  'apps/web/src/features/sso/SsoSettingsPage.test.tsx': 14,
};

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = `${this.ctx.config.root}/`;
    const seconds = (file: TestSpecification) => SLOW_FILES[file.moduleId.replace(root, '')] ?? 0;
    // A stable sort: the other files keep Vitest's own order (failed first, then longest known).
    return (await super.sort(files)).sort((a, b) => seconds(b) - seconds(a));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFilesFirst },
    // Vitest's own report, then what each database project ran (the PostgreSQL one only with
    // TEST_DATABASE_URL), for the summary `npm test` ends with.
    reporters: ['default', new DatabaseProjectsReporter()],
    // Most server test time is waiting (ffmpeg, servers, databases, real processes): three files at
    // a time keep 2 cores busy without starving any of them (docs/testing.md).
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
