/**
 * A test that needs something of the machine (nginx, PostgreSQL's server binaries, root to mount a
 * tmpfs) fails with what is missing instead of being skipped: every test must run, and .ci/run
 * installs all of it and runs as root (the README lists what the suite needs).
 */
export function requireOfMachine(missing: string | undefined): void {
  if (missing) throw new Error(`This test cannot run on this machine: ${missing}`);
}
