import { API_ROUTES } from './api-routes.js';
import type { Endpoint, RouteRef } from './endpoint.js';
import type { api } from './endpoints.js';

type Api = typeof api;

/** Every staff-console route as the console calls it: method, path and access, typed by its entry. */
export type ApiRoutes = {
  readonly [D in keyof Api]: {
    readonly [N in keyof Api[D]]: Api[D][N] extends Endpoint ? RouteRef<Api[D][N]> : never;
  };
};

/**
 * The console's table of routes: `call(apiRoutes.participants.get, { params: { id } })`, and
 * `canCall(apiRoutes.participants.remove)` for whether to offer it. The same objects as API_ROUTES;
 * the type check of this assignment holds them to the entries' methods and paths.
 */
export const apiRoutes: ApiRoutes = API_ROUTES;
