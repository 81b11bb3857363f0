/**
 * Method and path of the sign-in page's three calls, without their schemas: that page loads
 * before the console and carries no zod (its size goal: bench/sys-bundle.ts), so it calls
 * these. Their entries, with the schemas, are in session-endpoints.ts, made from these.
 */
export const SESSION_ROUTES = {
  login: { method: 'POST', path: '/login' },
  logout: { method: 'POST', path: '/logout' },
  session: { method: 'GET', path: '/api/session' },
} as const;
