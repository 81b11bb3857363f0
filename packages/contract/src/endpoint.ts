import type { z } from 'zod';
import type { Permission } from './permissions.js';

// One route of the API as data: what the server registers and validates, and what the console's
// client calls and is typed by. The table itself is in endpoints.ts (and session-endpoints.ts).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** The refusals a route may answer; every one has the body `{ message }` (errorResponse). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;
export type SuccessStatus = 200 | 201 | 202;

/**
 * Who may call a route (the server's access plugin enforces it, the OpenAPI document states it):
 * - public: anyone; - staff: any signed-in admin, and with a `permission` only the admins whose
 *   role has it (`can()`); - device: the tablet app with the bearer token of an assigned device;
 * - staff-or-device: a path both share (the tablet's PATCH of its participant): a request with an
 *   Authorization header is judged as a device, any other as staff.
 */
export type Access = 'public' | 'staff' | 'device' | 'staff-or-device';
export const ACCESS_LEVELS = ['public', 'staff', 'device', 'staff-or-device'] as const satisfies Access[];

/**
 * One route as the route table declares it, without schemas: method, path and who may call it. A
 * permission is for staff routes only, and only where not every signed-in admin may call the route.
 */
export type RouteDeclaration = {
  method: HttpMethod;
  /** Fastify's form, `:name` for a path parameter; the console's client fills them in. */
  path: string;
} & ({ access: 'staff'; permission?: Permission } | { access: Exclude<Access, 'staff'>; permission?: never });

export interface Endpoint {
  method: HttpMethod;
  /** Fastify's form, `:name` for a path parameter; the console's client fills them in. */
  path: string;
  /** Who may call it (see `Access`); from the route table, next to method and path. */
  access: Access;
  /** With access 'staff' only: the permission a caller's role must have. */
  permission?: Permission;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success answer by status; empty when the answer is not JSON (see `produces`). */
  responses: Partial<Record<SuccessStatus, z.ZodType>>;
  /** Refusals the route declares in the OpenAPI document (all `{ message }`). */
  errors: readonly ErrorStatus[];
  /** A non-JSON answer (CSV, a log file). */
  produces?: readonly string[];
  /** A non-JSON body (a CSV file); the route registers a parser for it. */
  consumes?: readonly string[];
  tags: readonly string[];
  summary: string;
  description?: string;
}

/** Keeps each entry's literal types (method, path, schemas) for the server and the client. */
export function endpoint<const E extends Endpoint>(entry: E): E {
  return entry;
}

/**
 * A route as the console calls it: its method, path and who may call it, typed by its whole entry
 * (`E`) though it carries none of the entry's schemas at run time (see api-routes.ts and
 * api-route-refs.ts). The console shows what a role may do by asking for the route it calls
 * (`canCall(route)`, apps/web/src/lib/session.ts).
 */
export interface RouteRef<E extends Endpoint = Endpoint> {
  readonly method: E['method'];
  readonly path: E['path'];
  readonly access: Access;
  readonly permission?: Permission;
  /** Never set: it only carries the entry's type to the client's `call()`. */
  readonly entry?: E;
}

// ---- Types the console's client reads from an entry ----

type OptionalKey<S> = S extends z.ZodOptional | z.ZodDefault ? true : false;

/** Query values as the caller gives them: a key is optional when the server has a default for it. */
export type QueryInput<Q> =
  Q extends z.ZodObject<infer Shape>
    ? { [K in keyof Shape as OptionalKey<Shape[K]> extends true ? never : K]: z.output<Shape[K]> } & {
        [K in keyof Shape as OptionalKey<Shape[K]> extends true ? K : never]?: z.output<Shape[K]>;
      }
    : never;

/** Path parameters as values (the client encodes them into the path). */
export type ParamsOf<E extends Endpoint> = E extends { params: infer P extends z.ZodType }
  ? z.output<P>
  : never;
export type QueryOf<E extends Endpoint> = E extends { query: infer Q extends z.ZodType }
  ? QueryInput<Q>
  : never;
/** The body as the console sends it (before the server's trimming and defaults). */
export type BodyOf<E extends Endpoint> = E extends { body: infer B extends z.ZodType } ? z.input<B> : never;
/** The JSON answer of a success. */
export type AnswerOf<E extends Endpoint> = {
  [S in keyof E['responses']]: E['responses'][S] extends z.ZodType ? z.output<E['responses'][S]> : never;
}[keyof E['responses']];
