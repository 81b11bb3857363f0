/** What global-setup.ts hands the test workers, through their environment. */
export const E2E_ENV = {
  baseURL: 'PATHWAY_E2E_BASE_URL',
  admin: 'PATHWAY_E2E_ADMIN',
  adminState: 'PATHWAY_E2E_ADMIN_STATE',
} as const;

export interface BootstrapAdmin {
  user_name: string;
  password: string;
  totp_secret: string;
}

export function e2eEnv(name: keyof typeof E2E_ENV): string {
  const value = process.env[E2E_ENV[name]];
  if (!value)
    throw new Error(
      `${E2E_ENV[name]} is not set: run the tests through playwright.config.ts (its global setup)`,
    );
  return value;
}
