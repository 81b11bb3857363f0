// Without zod, like role-names.ts: the sign-in page reads these before anything else is loaded.
import { messages } from './messages.js';

export const SSO_CLIENT_AUTH_METHODS = ['client_secret_basic', 'private_key_jwt'] as const;
export type SsoClientAuth = (typeof SSO_CLIENT_AUTH_METHODS)[number];

/** Why a single sign-on was refused: the code `/login?sso=` carries, each with its sentence. */
export type SsoRefusal = keyof typeof messages.sso.refused;

/** The sentence for a refusal code from the address bar, or undefined for anything else. */
export function ssoRefusalMessage(code: string | null | undefined): string | undefined {
  if (!code || !Object.hasOwn(messages.sso.refused, code)) return undefined;
  return messages.sso.refused[code as SsoRefusal];
}

/** The sign-in page goes here (a navigation, not a call) with the email typed: 302 to the provider. */
export const SSO_START_PATH = '/api/sso/start';
/**
 * Where a step-up through the provider ends (a page of the console, opened in a window of its own):
 * `?sso=<code>` when it was refused.
 */
export const SSO_STEP_UP_DONE_PATH = '/sso/step-up-done';
/** The console's window and the step-up window tell each other the result on this channel. */
export const SSO_STEP_UP_CHANNEL = 'pathway-sso-step-up';
