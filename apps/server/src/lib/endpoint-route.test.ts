import Fastify, { type RouteOptions } from 'fastify';
import { ROLES, api, can, deviceApi, messages, type Endpoint } from '@pathway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInCookie, type TestApp } from '../../test/harness.js';
import { requireDeclaredAccess } from '../plugins/access.js';
import { routeOf } from './endpoint-route.js';

let t: TestApp;
/** What each route of the app declares, by `METHOD url`, as Fastify is told of it. */
const registered = new Map<string, { access?: string; permission?: string }>();
beforeAll(async () => {
  t = await createTestApp({
    onRoute: (route: RouteOptions) => {
      for (const method of [route.method].flat())
        registered.set(`${method} ${route.url}`, {
          access: route.config?.access,
          permission: route.config?.permission,
        });
    },
  });
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

  it("registers every route with its entry's access and permission, and nothing else", () => {
    for (const [name, entry] of entries) {
      expect(registered.get(`${entry.method} ${entry.path}`), name).toEqual({
        access: entry.access,
        permission: entry.permission,
      });
    }
  });

  it("refuses exactly the roles without an entry's permission, on every route that has one", async () => {
    const guarded = entries.filter(([, entry]) => entry.permission !== undefined);
    expect(guarded.length).toBeGreaterThan(10);
    // The access check runs before validation: any value of a path parameter reaches it.
    const urlOf = (entry: Endpoint) => entry.path.replace(/:(\w+)/g, '1');
    const callers = [
      ...ROLES.map((role) => ({ role, systemAdministrator: false })),
      ...ROLES.map((role) => ({ role, systemAdministrator: true })),
    ];
    for (const caller of callers) {
      const { cookie } = await signedInCookie(t.ctx, caller.role, {
        system_administrator: caller.systemAdministrator,
      });
      const who = `${caller.role}${caller.systemAdministrator ? ', system administrator' : ''}`;
      for (const [name, entry] of guarded) {
        const res = await t.app.inject({ method: entry.method, url: urlOf(entry), headers: { cookie } });
        const refused = res.statusCode === 403 && res.body.includes(messages.session.forbidden);
        expect(refused, `${name} as ${who}: ${res.statusCode} ${res.body.slice(0, 120)}`).toBe(
          !can(caller, entry.permission!),
        );
      }
    }
    // Basic access holds none of these permissions: every guarded route refuses it.
    expect(guarded.every(([, entry]) => !can('basic access', entry.permission!))).toBe(true);
  });

  it('stops the start when a table route declares access of its own, as a branch written the old way would', async () => {
    const handler = async () => ({});
    const register = async (route: RouteOptions) => {
      const app = Fastify();
      requireDeclaredAccess(app);
      try {
        app.route(route);
        await app.ready();
      } finally {
        await app.close();
      }
    };
    // The old style: routeOf's config replaced by one written by hand (without the permission).
    const { method, url } = routeOf(api.admins.list);
    await expect(register({ method, url, config: { access: 'staff' }, handler })).rejects.toThrow(
      /other access than its entry .*staff admins\.manage/,
    );
    // A permission on a route outside the table.
    await expect(
      register({
        method: 'GET',
        url: '/not-in-the-table',
        // The type refuses a permission by hand; the start-up check is for what gets past it.
        config: { access: 'staff', permission: 'logs.read' as never },
        handler,
      }),
    ).rejects.toThrow(/not in the contract's route table/);
    await expect(register({ method, url, config: routeOf(api.admins.list).config, handler })).resolves.toBe(
      undefined,
    );
  });
});
