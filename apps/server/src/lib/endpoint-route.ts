import { errorResponse, type Endpoint, type ErrorStatus } from '@pathway/contract';

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
 * Method, URL and schema of a route from its entry in the contract's endpoint table, to spread
 * into `r.route({ ...routeOf(api.x.y), config: { access }, handler })`: the route validates with
 * the entry's schemas and the client is typed by the same entry, so neither restates the other.
 */
export function routeOf<const E extends Endpoint>(
  endpoint: E,
): { method: E['method']; url: E['path']; schema: EndpointSchema<E> } {
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
  // The object is built from the entry's own fields; TypeScript cannot follow a generic entry's
  // optional fields through the spreads, so the precise type is stated once here.
  return { method: endpoint.method, url: endpoint.path, schema: schema as unknown as EndpointSchema<E> };
}
