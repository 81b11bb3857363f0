import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the app', () => {
  it('answers liveness (with the release, from the root package.json) and readiness', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok', version });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('serves an OpenAPI document of every API route, with a viewer', async () => {
    const doc = (await t.app.inject('/api/docs/json')).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of [
      '/login',
      '/logout',
      '/api/session',
      '/api/admin',
      '/api/admin/{user_name}',
      '/api/logs/getloglist',
      '/api/logs/download/{fileName}',
    ]) {
      expect(doc.paths, p).toHaveProperty([p]);
    }
    const ref: string = doc.paths['/api/admin'].post.requestBody.content['application/json'].schema.$ref;
    const schemaName = ref.split('/').at(-1)!;
    expect(doc.components.schemas[schemaName].properties).toHaveProperty('user_name');
    expect(doc.paths['/api/admin'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/admin'].get.description).toContain('full access');
    const viewer = await t.app.inject('/api/docs');
    expect([200, 302]).toContain(viewer.statusCode);
  });

  it('sends strict security headers and no-store on API answers', async () => {
    const res = await t.app.inject('/api/session');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API paths with a JSON 404 and bad JSON with a 400, never a stack', async () => {
    const missing = await t.app.inject('/api/does-not-exist');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Not found' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin',
      payload: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
    expect(bad.body).not.toMatch(/at .*\.ts:\d+/);
  });
});
