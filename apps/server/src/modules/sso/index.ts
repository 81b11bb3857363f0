/** Single sign-on with each organisation's OpenID Connect provider (docs/security.md, Single sign-on). */
export { ssoRoutes } from './routes.js';
export { endSessionUrlOf } from './sign-out.js';
export { pruneLogoutTokens } from './backchannel.js';
export { pruneSsoFlows } from './flows.js';
