/** What global-setup.ts hands the test workers, through their environment. */
export const E2E_ENV = {
  baseURL: 'PATHWAY_E2E_BASE_URL',
  /** JSON: one `WorkerAdmin` per worker slot (Playwright's `parallelIndex`). */
  workerAdmins: 'PATHWAY_E2E_WORKER_ADMINS',
} as const;

export interface BootstrapAdmin {
  user_name: string;
  password: string;
  totp_secret: string;
}

/** A full-access admin of one worker slot, with the file of its signed-in API session. */
export interface WorkerAdmin extends BootstrapAdmin {
  storageState: string;
}

export function e2eEnv(name: keyof typeof E2E_ENV): string {
  const value = process.env[E2E_ENV[name]];
  if (!value)
    throw new Error(
      `${E2E_ENV[name]} is not set: run the tests through playwright.config.ts (its global setup)`,
    );
  return value;
}
