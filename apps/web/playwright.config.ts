import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against the real server (started by e2e/global-setup.ts on a free port with a
 * fresh data directory), driving Debian's Chromium. No browser is ever downloaded.
 * Run from the repository root: `npm run test:e2e` (builds the console first).
 *
 * Debian's chromium-headless-shell (the same Chromium built for headless use only, as Playwright
 * itself runs headless tests) when it is installed, as `.ci/run` does: the suite runs faster on it
 * (docs/testing.md). Otherwise the full `chromium`.
 */
const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 120_000,
  // How long a screen may take to reach the state a test waits for: a bound, never a pause (a
  // passing test does not wait it out). Generous for a 2-core machine under `stress --cpu 2` with
  // other work beside the suite (docs/testing.md).
  expect: { timeout: 45_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    // The theme switches transitions off for people who ask for less motion; screens settle at once.
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
