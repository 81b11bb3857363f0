/**
 * A test that needs something of the machine (nginx, PostgreSQL's binaries, root to mount a
 * tmpfs) is skipped with its reason on a developer's machine that lacks it. In CI (`CI` set, as
 * .ci/run does) every test must run: a missing part there fails the file instead of skipping it
 * quietly, since .ci/run installs everything and runs as root.
 */
export function skipOutsideCi(reason: string | undefined): string | undefined {
  if (reason && process.env.CI) throw new Error(`CI must run this test, but ${reason}`);
  return reason;
}
