import type { RouteDeclaration } from './endpoint.js';

/**
 * Method, path and access of the sign-in page's three calls, without their schemas: that page loads
 * before the console and carries no zod (its size goal: bench/sys-bundle.ts), so it calls
 * these. Their entries, with the schemas, are in session-endpoints.ts, made from these.
 */
export const SESSION_ROUTES = {
  login: { method: 'POST', path: '/login', access: 'public' },
  logout: { method: 'POST', path: '/logout', access: 'public' },
  session: { method: 'GET', path: '/api/session', access: 'staff' },
} as const satisfies Record<string, RouteDeclaration>;
