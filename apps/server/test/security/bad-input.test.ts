import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/rows.js';
import { createTestApp, signedInCookie, type TestApp } from '../harness.js';
import { rowFor, type Caller, type MatrixRow, type World } from './authorization-matrix.js';
import { seedWorld, type SeededWorld } from './world.js';

/**
 * Bad input against every operation of the OpenAPI document: property-based requests (fast-check)
 * that break the body, its fields, the content type, the path and the query in every way we could
 * think of. Each starts from a request the route accepts (the authorization matrix's recipe), so
 * the one change is what is judged. Every answer must be below 500 with a `{ message }`; a refused
 * request (4xx) must leave the database exactly as it was, and a request that can only be wrong
 * (malformed JSON, a dropped required field, a bad path parameter, ...) must be refused.
 */

let t: TestApp;
let world: World;
let credentials: SeededWorld['credentials'];
const operations: Operation[] = [];
/** Random requests per operation: a dozen in `npm test`; BAD_INPUT_RUNS=200 for a deeper hunt. */
const RANDOM_RUNS = Number(process.env.BAD_INPUT_RUNS ?? 12);
let recipeWrote = false;

/**
 * Tables whose rows change without anything being accepted: session touches, sign-in counters,
 * rate-limit windows (a refused call 1 still counts).
 */
const VOLATILE_TABLES = new Set([
  'sessions',
  'login_throttle',
  'rate_limit_counters',
  // The follow-up worklist's counts, which follow its columns below.
  'followup_tally',
]);
/**
 * Columns a valid device token touches on any call, refused or not: the token's last use and the
 * participant's contact time and address (device-api.md: "tablet last in contact"), and follow-up's
 * copy of it.
 */
const VOLATILE_COLUMNS: Record<string, string[]> = {
  device_tokens: ['last_used_at'],
  participants: ['tablet_last_contact_at', 'last_ip_address'],
  // Follow-up: the last call with the tablet's token, and the silence counted from it; a tablet's
  // first call without a push token begins "reminders failing".
  participant_followup: ['tablet_called_at', 'silent_from', 'failing_began_at', 'failing_since'],
};
/**
 * Rows a refused request writes by design: a refused sign-in is a security event (a failure, and
 * after repeated ones a lock-out), recorded in the audit trail in the same transaction.
 */
const VOLATILE_ROWS: Record<string, string> = {
  audit_events: "where action not in ('signin.failure', 'signin.lockout')",
};
let tables: string[] = [];

interface Operation {
  method: string;
  path: string;
  row: MatrixRow;
  caller: Caller;
  pathParams: string[];
  /** Path parameters that are ids: a bad value there can only be refused. */
  numericPathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  requiredFields: string[];
  /** Body fields the recipe fills with text. */
  stringFields: string[];
  hasBody: boolean;
}

type JsonSchema = {
  $ref?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

function resolve(
  doc: { components?: { schemas?: Record<string, JsonSchema> } },
  schema: JsonSchema | undefined,
): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  return doc.components?.schemas?.[schema.$ref.split('/').at(-1)!];
}

beforeAll(async () => {
  t = await createTestApp();
  const seeded = await seedWorld(t);
  credentials = seeded.credentials;
  // Notes when a recipe adds a row, so the snapshot before the request is taken again.
  world = Object.fromEntries(
    Object.entries(seeded.world).map(([k, v]) => [
      k,
      typeof v === 'function' && k.startsWith('fresh')
        ? (...args: unknown[]) => {
            recipeWrote = true;
            return (v as (...a: unknown[]) => unknown)(...args);
          }
        : v,
    ]),
  ) as unknown as World;
  const doc = t.app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Array<{ in: string; name: string; schema?: { type?: string } }>;
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
          security?: unknown[];
        }
      >
    >;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  for (const [docPath, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const url = docPath.replace(/\{\*\}/g, '*').replace(/\{([^}]+)\}/g, ':$1');
      const row = rowFor(method.toUpperCase(), url);
      if (!row)
        throw new Error(
          `${method} ${docPath} is in the OpenAPI document but not in the authorization matrix`,
        );
      const body = resolve(doc, Object.values(op.requestBody?.content ?? {})[0]?.schema);
      const variants = body
        ? [body, ...(body.anyOf ?? []), ...(body.oneOf ?? [])].map((s) => resolve(doc, s)!)
        : [];
      const recipe = await row.call(world, row.who.system === 'ok' ? 'system' : 'device');
      const recipeBody =
        recipe.payload && typeof recipe.payload === 'object' && !Buffer.isBuffer(recipe.payload)
          ? (recipe.payload as Record<string, unknown>)
          : {};
      operations.push({
        stringFields: Object.entries(recipeBody)
          .filter(([, v]) => typeof v === 'string')
          .map(([k]) => k),
        method: method.toUpperCase(),
        path: url,
        row,
        // Each route is called as someone it serves, so validation, not access, answers.
        caller: row.who.system === 'ok' ? 'system' : 'device',
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        numericPathParams: (op.parameters ?? [])
          .filter((p) => p.in === 'path' && ['integer', 'number'].includes(p.schema?.type ?? ''))
          .map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: [...new Set(variants.flatMap((v) => Object.keys(v.properties ?? {})))],
        requiredFields: [...new Set(variants.flatMap((v) => v.required ?? []))],
        hasBody: Boolean(op.requestBody),
      });
    }
  }
  const found = rowsOf<{ table_name: string }>(
    await t.ctx.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  tables = found
    .map((r) => r.table_name)
    .filter((name) => !VOLATILE_TABLES.has(name) && !name.startsWith('__'));
});
afterAll(() => t.close());

function rowText(table: string): string {
  const volatile = VOLATILE_COLUMNS[table];
  return volatile ? `(to_jsonb(x) ${volatile.map((c) => `- '${c}'`).join(' ')})::text` : 'x::text';
}

/** Row counts and a checksum of every row of every table that only accepted requests may change. */
async function snapshot(): Promise<string> {
  const parts = tables.map(
    (name) =>
      `select '${name}' as t, count(*)::text as n, coalesce(md5(string_agg(${rowText(name)}, ',' order by ${rowText(name)})), '') as h from "${name}" x ${VOLATILE_ROWS[name] ?? ''}`,
  );
  const rows = rowsOf<{ t: string; n: string; h: string }>(
    await t.ctx.database.db.execute(sql.raw(parts.join(' union all '))),
  );
  return rows.map((r) => `${r.t}:${r.n}:${r.h}`).join('|');
}

// ---- the bad values ----

const INJECTIONS = [
  "'; drop table participants; --",
  "1' or '1'='1",
  '1; select pg_sleep(5)',
  '$ne',
  '{"$gt": ""}',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%00',
  'null',
  'undefined',
  '\\',
];
const UNICODE = [
  '\u0000',
  'Ada\u0000Lovelace',
  '\u202Eevil\u202C',
  '\uD800',
  '\uDFFF lone low surrogate',
  '😀'.repeat(200),
  'Z̷̢͈̓a̸͎͠l̶̪͋g̵̰̈o̵͍̚',
  '\uFEFF',
  '\r\n\t',
  '\u2028\u2029',
  'ｆｕｌｌ width',
];
const nastyString = fc.oneof(
  {
    arbitrary: fc.constantFrom(...INJECTIONS, ...UNICODE, '', ' ', '0', '-1', '1e309', 'true', 'NaN'),
    weight: 3,
  },
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 600 }),
  fc.integer({ min: 5_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);
const nastyValue = fc.oneof(
  nastyString,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    2 ** 31,
    2 ** 53 + 1,
    -1e308,
    1.5,
    [],
    {},
    { $ne: null },
    { $gt: '' },
    [1, 2, 3],
  ),
);
/** Path parameters no route can accept: each must be refused. */
const BAD_PATH_VALUES = [
  '-1',
  '0',
  'abc',
  '1.5',
  '99999999999999999999',
  '2147483648',
  '..%2F..%2Fetc%2Fpasswd',
  '%00',
  '%F0',
  '%E2%80%AE',
  '%20',
  "1'%20or%20'1'%3D'1",
  'NaN',
  'Infinity',
  '%7B%22%24ne%22%3Anull%7D',
  'x'.repeat(3000),
];

/** Every byte of the UTF-8 text percent-encoded (a lone surrogate becomes U+FFFD, as a browser sends it). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

type Mutation =
  | { kind: 'body'; value: unknown }
  | { kind: 'field'; field: string; value: unknown }
  | { kind: 'poison'; fields: string[]; fragment: string }
  | { kind: 'drop'; fields: string[] }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'oversized' }
  | { kind: 'malformed'; text: string }
  | { kind: 'content-type'; type: string }
  | { kind: 'form'; field: string; value: string }
  | { kind: 'path'; param: string; value: string }
  | { kind: 'query'; param: string; value: string };

function mutations(op: Operation): fc.Arbitrary<Mutation> {
  const options: fc.Arbitrary<Mutation>[] = [];
  const fields = op.bodyFields.length > 0 ? op.bodyFields : ['anything'];
  if (op.hasBody) {
    options.push(
      fc.record({
        kind: fc.constant('body' as const),
        value: fc.oneof(fc.jsonValue({ maxDepth: 3 }), nastyValue),
      }),
      fc.record({
        kind: fc.constant('field' as const),
        field: fc.constantFrom(...fields),
        value: nastyValue,
      }),
      fc.record({
        kind: fc.constant('extra' as const),
        key: fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.constantFrom('__proto__', 'constructor', 'participant_id', 'role', 'admin_user_id'),
        ),
        value: nastyValue,
      }),
      fc.constant({ kind: 'oversized' as const }),
      fc.record({
        kind: fc.constant('malformed' as const),
        text: fc.constantFrom(
          '{',
          '{"a":',
          '{"a" 1}',
          "{'a': 1}",
          '[1,,2]',
          '{"a":1}}',
          'nul',
          '\u0000',
          '{"a":"\\u00"}',
          '['.repeat(5000),
          '{"__proto__": {"x": 1}, "a": }',
        ),
      }),
      fc.record({
        kind: fc.constant('content-type' as const),
        type: fc.constantFrom(
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'image/png',
        ),
      }),
      fc.record({
        kind: fc.constant('form' as const),
        field: fc.constantFrom(...fields),
        value: nastyString,
      }),
    );
    const textFields = op.stringFields;
    if (textFields.length > 0) {
      // Valid text with a dangerous fragment inside: it passes the length and shape rules, so it
      // reaches the service and the database, where NUL, lone surrogates or injections would bite.
      options.push(
        fc.record({
          kind: fc.constant('poison' as const),
          fields: fc.subarray(textFields, { minLength: 1 }),
          fragment: fc.constantFrom(...INJECTIONS, ...UNICODE.filter((u) => u.length < 20)),
        }),
      );
    }
    if (op.requiredFields.length > 0) {
      options.push(
        fc.record({
          kind: fc.constant('drop' as const),
          fields: fc.subarray(op.requiredFields, { minLength: 1 }),
        }),
      );
    }
  }
  if (op.pathParams.length > 0) {
    options.push(
      fc.record({
        kind: fc.constant('path' as const),
        param: fc.constantFrom(...op.pathParams),
        value: fc.constantFrom(...BAD_PATH_VALUES),
      }),
    );
  }
  if (op.queryParams.length > 0) {
    options.push(
      fc.record({
        kind: fc.constant('query' as const),
        param: fc.constantFrom(...op.queryParams),
        value: fc.oneof(
          fc.constantFrom(...BAD_PATH_VALUES),
          fc.constantFrom(...INJECTIONS, ...UNICODE).map(percentEncode),
          nastyString.map((s) => percentEncode(s.slice(0, 3000))),
        ),
      }),
    );
  }
  if (options.length === 0) {
    options.push(
      fc.record({
        kind: fc.constant('query' as const),
        param: fc.constantFrom('extra', 'q', 'page'),
        value: fc.constantFrom(...BAD_PATH_VALUES),
      }),
    );
  }
  return fc.oneof(...options);
}

/** Cases every operation gets besides the random ones: the ones most likely to reach the database. */
function alwaysTried(op: Operation): Mutation[] {
  const cases: Mutation[] = [];
  if (op.hasBody) {
    cases.push({ kind: 'body', value: {} }, { kind: 'malformed', text: '{"a":' }, { kind: 'oversized' });
    if (op.stringFields.length > 0) {
      for (const fragment of ['\u0000', '\uD800', "'; drop table participants; --"])
        cases.push({ kind: 'poison', fields: op.stringFields, fragment });
    }
  }
  for (const param of op.pathParams)
    cases.push({ kind: 'path', param, value: op.numericPathParams.includes(param) ? 'abc' : '%00' });
  for (const param of op.queryParams) cases.push({ kind: 'query', param, value: '%00' });
  return cases;
}

/** Requests that can only be wrong: the route must refuse them. */
function mustBeRefused(op: Operation, m: Mutation): boolean {
  if (m.kind === 'malformed' || m.kind === 'oversized' || m.kind === 'drop') return true;
  if (m.kind === 'content-type') return !m.type.startsWith('application/json');
  if (m.kind === 'path') return op.numericPathParams.includes(m.param) || /%00|%F0$/.test(m.value);
  // A whole body that is not an object cannot be any route's body.
  if (m.kind === 'body')
    return m.value === null || typeof m.value !== 'object' || Array.isArray(m.value)
      ? op.bodyFields.length > 0
      : false;
  return false;
}

function replacePathParam(template: string, url: string, param: string, value: string): string {
  // The recipe filled the template; put the bad value where the named parameter sits.
  const templateParts = template.split('/');
  const urlParts = url.split('?')[0]!.split('/');
  const index = templateParts.indexOf(`:${param}`);
  if (index < 0) return url;
  urlParts[index] = value;
  const query = url.includes('?') ? `?${url.split('?')[1]}` : '';
  return urlParts.join('/') + query;
}

/** The request for one mutation (the recipe may first add the throwaway row it points at). */
async function prepare(op: Operation, m: Mutation) {
  const base = await op.row.call(world, op.caller);
  // Signing out would end the session every later request uses: it gets a session of its own.
  let auth = credentials[op.caller];
  if (op.row.endsSession) {
    auth = { cookie: (await signedInCookie(t.ctx, 'full access')).cookie };
    recipeWrote = true; // a new admin row
  }
  const headers: Record<string, string> = { ...base.headers, ...auth };
  let url = base.url;
  let payload: string | Buffer | undefined;
  const baseBody = (
    base.payload && typeof base.payload === 'object' && !Buffer.isBuffer(base.payload) ? base.payload : {}
  ) as Record<string, unknown>;
  const json = (value: unknown) => {
    headers['content-type'] = 'application/json';
    return JSON.stringify(value) ?? 'null';
  };
  if (base.payload !== undefined) payload = Buffer.isBuffer(base.payload) ? base.payload : json(base.payload);
  switch (m.kind) {
    case 'body':
      payload = json(m.value);
      break;
    case 'field':
      payload = json({ ...baseBody, [m.field]: m.value });
      break;
    case 'poison':
      payload = json(
        Object.fromEntries(
          Object.entries(baseBody).map(([k, v]) => [
            k,
            m.fields.includes(k) && typeof v === 'string'
              ? `${v.slice(0, 1)}${m.fragment}${v.slice(1)}`.slice(
                  0,
                  Math.max(v.length + m.fragment.length, 2),
                )
              : v,
          ]),
        ),
      );
      break;
    case 'drop':
      payload = json(Object.fromEntries(Object.entries(baseBody).filter(([k]) => !m.fields.includes(k))));
      break;
    case 'extra':
      payload = `${json(baseBody).slice(0, -1)}${Object.keys(baseBody).length > 0 ? ',' : ''}${JSON.stringify(m.key)}:${JSON.stringify(m.value) ?? 'null'}}`;
      break;
    case 'oversized':
      payload = json({ ...baseBody, [op.bodyFields[0] ?? 'x']: 'a'.repeat(1024 * 1024 + 10) });
      break;
    case 'malformed':
      headers['content-type'] = 'application/json';
      payload = m.text;
      break;
    case 'content-type':
      headers['content-type'] = m.type;
      payload = payload ?? 'hello';
      break;
    case 'form': {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const form = new URLSearchParams(
        Object.entries(baseBody).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      form.set(m.field, m.value);
      payload = form.toString();
      break;
    }
    case 'path':
      url = replacePathParam(op.path, url, m.param, m.value);
      break;
    case 'query':
      url = `${url}${url.includes('?') ? '&' : '?'}${encodeURIComponent(m.param)}=${m.value}`;
      break;
  }
  return { method: op.method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) };
}

describe('bad input on every operation of the OpenAPI document', () => {
  it(
    'never answers 5xx, always says why, changes nothing when it refuses',
    async () => {
      expect(operations.length).toBeGreaterThan(50);
      let tried = 0;
      let refused = 0;
      const problems: string[] = [];
      let lastSnapshot: string | undefined;
      for (const op of operations) {
        // Dangerous routes need a sign-in or step-up within the last 5 minutes, and the whole walk
        // takes longer than that on a loaded machine: each operation starts with the staff
        // sessions just confirmed, so the step-up check is never what answers.
        await t.ctx.database.db.execute(
          sql`update sessions set authenticated_at = ${t.ctx.clock.now().toISOString()} where ended_at is null`,
        );
        await fc.assert(
          fc.asyncProperty(mutations(op), async (m) => {
            recipeWrote = false;
            const request = await prepare(op, m);
            // The recipe may have added the throwaway row the request points at.
            const before = recipeWrote || lastSnapshot === undefined ? await snapshot() : lastSnapshot;
            const res = await t.app.inject(request);
            tried += 1;
            const label = `${op.method} ${op.path} ${JSON.stringify(m).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
            const after = await snapshot();
            lastSnapshot = after;
            if (res.statusCode >= 500) problems.push(`server error: ${label}`);
            // Every request comes from a caller the route serves: access control must not be what answers
            // (a sign-in with bad input is the one 401 that belongs to the route itself).
            else if ((res.statusCode === 401 || res.statusCode === 403) && op.path !== '/login')
              problems.push(`refused by access control, not judged: ${label}`);
            else if (res.statusCode >= 400) {
              refused += 1;
              let message: unknown;
              try {
                message = res.json<{ message?: unknown }>().message;
              } catch {
                message = undefined;
              }
              if (op.method !== 'HEAD' && (typeof message !== 'string' || message.trim() === ''))
                problems.push(`refusal without a message: ${label}`);
              if (after !== before) problems.push(`refused but the database changed: ${label}`);
              if (res.body.match(/at .*\.(ts|js):\d+|node_modules|stack/i))
                problems.push(`refusal shows internals: ${label}`);
            } else if (mustBeRefused(op, m)) {
              problems.push(`accepted a request that can only be wrong: ${label}`);
            }
          }),
          // Bounded: the fixed cases plus a dozen random ones per operation (new ones each run).
          {
            numRuns: alwaysTried(op).length + RANDOM_RUNS,
            examples: alwaysTried(op).map((m) => [m] as [Mutation]),
            endOnFailure: true,
          },
        );
      }
      console.log(
        `[bad input] ${operations.length} operations, ${tried} requests tried, ${refused} refused, ${problems.length} problems`,
      );
      expect(problems).toEqual([]);
    },
    // Every operation in one test: about a thousand requests, each with two database snapshots. On a
    // quiet machine it takes under a minute; with both cores busy (`stress --cpu 2` beside the suite)
    // it took over two. The limit only turns a hang into a failure.
    Math.max(900_000, RANDOM_RUNS * 60_000),
  );
});
