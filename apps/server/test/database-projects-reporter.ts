import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Where the last run's record is kept for `scripts/database-projects.mjs`, the last step of `npm test`. */
export const DATABASE_PROJECTS_RECORD = path.resolve('node_modules/.cache/pathway/database-projects.json');

const DATABASE_PROJECTS = ['server-pglite', 'server-postgres'] as const;

/**
 * Counts what each database project ran. The PostgreSQL project exists only when TEST_DATABASE_URL
 * is set, so without it a run would pass with half the server tests missing and nothing saying so:
 * this prints the count of each project at the end of the run and records it for the summary
 * `npm test` prints last (and `.ci/run` requires the PostgreSQL project to have run).
 */
export default class DatabaseProjectsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const record = Object.fromEntries(
      DATABASE_PROJECTS.map((name) => {
        const modules = testModules.filter((m) => m.project.name === name);
        const tests = modules.flatMap((m) => [...m.children.allTests()]);
        return [
          name,
          {
            files: modules.length,
            passed: tests.filter((t) => t.result().state === 'passed').length,
            failed: tests.filter((t) => t.result().state === 'failed').length,
          },
        ];
      }),
    );
    mkdirSync(path.dirname(DATABASE_PROJECTS_RECORD), { recursive: true });
    writeFileSync(
      DATABASE_PROJECTS_RECORD,
      JSON.stringify({ testDatabaseUrlSet: Boolean(process.env.TEST_DATABASE_URL), ...record }),
    );
  }
}
