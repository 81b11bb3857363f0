import type { FastifyContextConfig } from 'fastify';
import {
  errorResponse,
  type Access,
  type Endpoint,
  type ErrorStatus,
  type Permission,
} from '@pathway/contract';

declare const fromRouteTable: unique symbol;
/**
 * A permission as a route's entry in the contract's route table declares it. Only `routeOf()` makes
 * one, and a route's `config.permission` is of this type, so a permission written by hand in a
 * route file (`config: { access: 'staff', permission: '...' }`, the style before the table carried
 * them) does not compile: who may call a table route is said in its entry alone.
 */
export type TablePermission = Permission & { readonly [fromRouteTable]: true };

/** Route options besides access (rate limits, the sign-in routes' marks), for `routeOf`'s second argument. */
export type ExtraConfig = Omit<FastifyContextConfig, 'access' | 'permission'> & {
  access?: never;
  permission?: never;
};

/** The access part of a table route's `config`, from its entry. */
export interface TableAccess {
  access: Access;
  permission?: TablePermission;
}

/** The refusals a route declares, each with the one error body `{ message }`. */
export type ErrorResponses<C extends readonly ErrorStatus[]> = { [S in C[number]]: typeof errorResponse };

/**
 * The shared error-response declaration: `errorResponses([401, 404])` is
 * `{ 401: errorResponse, 404: errorResponse }`, for the OpenAPI document and the typed reply.
 */
export function errorResponses<const C extends readonly ErrorStatus[]>(codes: C): ErrorResponses<C> {
  return Object.fromEntries(codes.map((code) => [code, errorResponse])) as ErrorResponses<C>;
}

type Part<E, K extends string> = E extends { [P in K]: infer V } ? V : undefined;

/** The Fastify schema of an entry: its zod schemas (typed), its OpenAPI text and its refusals. */
export interface EndpointSchema<E extends Endpoint> {
  tags: string[];
  summary: string;
  description?: string;
  produces?: string[];
  consumes?: string[];
  params: Part<E, 'params'>;
  querystring: Part<E, 'query'>;
  body: Part<E, 'body'>;
  response: E['responses'] & ErrorResponses<E['errors']>;
}

/**
 * Method, URL, schema and access of a route from its entry in the contract's endpoint table, to
 * spread into `r.route({ ...routeOf(api.x.y), handler })`: the route validates with the entry's
 * schemas, is guarded by the entry's `access` and `permission` (as `config`, which the access
 * plugin enforces and documents), and the client is typed by the same entry, so neither restates
 * the other. Other route options go in `extra` (`routeOf(api.auth.login, { rateLimit })`); access
 * and permission cannot.
 */
export function routeOf<const E extends Endpoint, const X extends ExtraConfig = Record<never, never>>(
  endpoint: E,
  extra?: X,
): { method: E['method']; url: E['path']; schema: EndpointSchema<E>; config: X & TableAccess } {
  const schema = {
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(endpoint.description !== undefined && { description: endpoint.description }),
    ...(endpoint.params && { params: endpoint.params }),
    ...(endpoint.query && { querystring: endpoint.query }),
    ...(endpoint.body && { body: endpoint.body }),
    ...(endpoint.produces && { produces: [...endpoint.produces] }),
    ...(endpoint.consumes && { consumes: [...endpoint.consumes] }),
    response: { ...endpoint.responses, ...errorResponses(endpoint.errors) },
  };
  const config = {
    ...extra,
    access: endpoint.access,
    ...(endpoint.permission !== undefined && { permission: endpoint.permission as TablePermission }),
  } as X & TableAccess;
  // The object is built from the entry's own fields; TypeScript cannot follow a generic entry's
  // optional fields through the spreads, so the precise type is stated once here.
  return {
    method: endpoint.method,
    url: endpoint.path,
    schema: schema as unknown as EndpointSchema<E>,
    config,
  };
}
