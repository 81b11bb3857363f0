import type { RouteDeclaration } from './endpoint.js';

/**
 * Method, path and access of the sign-in page's calls, without their schemas: that page loads
 * before the console and carries no zod (its size goal: bench/sys-bundle.ts), so it calls
 * these. Their entries, with the schemas, are in session-endpoints.ts, made from these.
 */
export const SESSION_ROUTES = {
  login: { method: 'POST', path: '/login', access: 'public' },
  logout: { method: 'POST', path: '/logout', access: 'public' },
  session: { method: 'GET', path: '/api/session', access: 'staff' },
  /** Whether a work email's domain signs in through its organisation's provider. */
  ssoLookup: { method: 'GET', path: '/api/sso/lookup', access: 'public' },
} as const satisfies Record<string, RouteDeclaration>;
