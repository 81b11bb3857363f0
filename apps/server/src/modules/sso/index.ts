/** Single sign-on with each organisation's OpenID Connect provider (docs/security.md, Single sign-on). */
export { ssoRoutes, publicBase } from './routes.js';
export { endSessionUrlOf, passwordSignInPolicy } from './sign-out.js';
export { pruneLogoutTokens } from './backchannel.js';
export { pruneSsoFlows } from './flows.js';
export { CLIENT_SECRET_PURPOSE, PRIVATE_JWK_PURPOSE } from './sso-secrets.js';
