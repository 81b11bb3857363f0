import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { scanLogs } from './log-leaks.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where every test file leaves its server's logs for the scan after the run. */
    testLogRoot: string;
  }
}

/**
 * Global setup of the server test projects: one directory for the run's logs, scanned when every
 * file of the project has finished. A leak fails the run and names the file and line.
 */
export default function setup(project: TestProject) {
  const root = mkdtempSync(path.join(os.tmpdir(), `pathway-test-logs-${project.name}-`));
  project.provide('testLogRoot', root);
  return () => {
    const report = scanLogs(root);
    // The figure for the README's security evidence: printed, never asserted.
    console.log(
      `[log scan ${project.name}] ${report.files} log files, ${report.lines} lines, ${report.secretsLookedFor} stored details and handed-out secrets looked for: ${report.leaks.length} leaks`,
    );
    if (report.leaks.length > 0) {
      // Vitest reports a teardown error but keeps the exit status of the tests; a leak must fail the run.
      process.exitCode = 1;
      throw new Error(
        `Identifiable data or secrets in the test run's logs (kept in ${root}):\n${report.leaks.slice(0, 50).join('\n')}`,
      );
    }
    rmSync(root, { recursive: true, force: true });
  };
}
