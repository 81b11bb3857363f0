import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';

type JsonSchema = Record<string, unknown>;

/** Keywords that only describe or constrain a value; a serializer writes the value either way. */
const ANNOTATIONS = new Set(['description', 'title', 'minimum', 'maximum', 'enum', 'format', 'pattern']);

function simpleType(branch: unknown): string | null {
  if (!branch || typeof branch !== 'object') return null;
  const entries = Object.entries(branch as JsonSchema);
  const type = (branch as JsonSchema).type;
  if (typeof type !== 'string' || type === 'object' || type === 'array') return null;
  return entries.every(([key]) => key === 'type' || ANNOTATIONS.has(key)) ? type : null;
}

/**
 * `anyOf: [{ type: 'string', enum }, { type: 'null' }]` (zod's nullable enum) becomes
 * `type: ['string', 'null']`: fast-json-stringify picks an anyOf branch by running a validator
 * on every value, a type list it picks with typeof. Object branches (a union of shapes) stay.
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) out[key] = simplify(value);
  if (Array.isArray(out.anyOf)) {
    const types = out.anyOf.map(simpleType);
    if (types.every((t) => t !== null)) {
      delete out.anyOf;
      out.type = [...new Set(types)];
    }
  }
  return out;
}

/**
 * A serializer compiled once (on its first call) from a contract schema, as Fastify does natively
 * with JSON Schema: it writes exactly the schema's properties (a field the schema lacks is never
 * sent, as with the zod serializer) without building and checking a copy of the answer first. For
 * the large answers (a grid page of 100 participants, a tablet's 350 videos) the zod pass was most
 * of the request's JavaScript.
 */
export function compileSerializer(schema: ZodType): (data: unknown) => string {
  // Compiled on first use, not at start: building the JSON Schema and the serializer's code is
  // start-up work for answers a process may never send.
  let write: ((data: unknown) => string) | undefined;
  return (data) => {
    if (!write) {
      const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' });
      write = fastJson(simplify(json) as never) as (data: unknown) => string;
    }
    return write(data);
  };
}

/**
 * A route's `serializerCompiler` that writes its 200 answer with `compileSerializer` and every
 * other status (the `{ message }` errors) through the zod serializer, as every other route does.
 */
export function compiledOkSerializer(ok: ZodType): FastifySerializerCompiler<unknown> {
  const fast = compileSerializer(ok);
  return (route) => (String(route.httpStatus) === '200' ? fast : zodSerializerCompiler(route as never));
}
