import { api, deviceApi, type Endpoint } from '@pathway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const entries: [string, Endpoint][] = Object.entries({ ...api, deviceApi }).flatMap(([domain, group]) =>
  Object.entries(group as Record<string, Endpoint>).map(([name, entry]): [string, Endpoint] => [
    `${domain}.${name}`,
    entry,
  ]),
);

describe("the contract's endpoint table", () => {
  it('names each route once', () => {
    const routes = entries.map(([, e]) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('is what the server registers and documents: path, method, text, parameters, body and answers', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    for (const [name, entry] of entries) {
      const path = entry.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths?.[path]?.[entry.method.toLowerCase()];
      expect(operation, name).toBeDefined();
      expect(operation.summary, name).toBe(entry.summary);
      expect(operation.tags, name).toEqual(entry.tags);
      // The access plugin adds who may call the route after the entry's own text.
      if (entry.description) expect(operation.description, name).toContain(entry.description);
      expect(Object.keys(operation.responses).sort(), name).toEqual(
        [...Object.keys(entry.responses), ...entry.errors.map(String)].sort(),
      );
      expect(operation.requestBody !== undefined, name).toBe(entry.body !== undefined);
      const pathParams = [...entry.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const documented = ((operation.parameters ?? []) as { in: string; name: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      expect(documented.sort(), name).toEqual(pathParams.sort());
    }
  });

  it("says once in every documented operation's text who may call it", async () => {
    // Fastify's automatic HEAD route shares its GET's schema object; the access hook once
    // appended the sentence to that shared object for both, so every GET said it twice.
    const doc = (await t.app.inject('/api/docs/json')).json();
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { description?: string }>>,
    ).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [`${method} ${path}`, op.description] as const),
    );
    expect(operations.length).toBeGreaterThan(0);
    for (const [name, description] of operations) {
      expect(description?.match(/Access: /g)?.length ?? 0, name).toBe(1);
    }
  });
});
