/** Sign-in, sessions, passwords, TOTP and the secrets at rest. */
export { assertAcceptablePassword } from './password-policy.js';
export { hashPassword } from './passwords.js';
export { authRoutes, lockoutRoutes, sessionCookieOptions } from './routes.js';
export {
  CLIENT_SECRET_PURPOSE,
  PRIVATE_JWK_PURPOSE,
  openSecretsAtRest,
  rotateSecretsKey,
} from './secrets-at-rest.js';
export { SessionService, endSessionsOf, sessionSigningKey } from './sessions.js';
export { otpauthUrl } from './totp.js';
export { newStoredTotpSecret } from './totp-secrets.js';
