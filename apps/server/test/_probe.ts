import { createTestApp, signedInCookie } from './harness.js';
const t = await createTestApp();
const { cookie } = await signedInCookie(t.ctx);
for (const name of ['A\u0000B set', 'A\uD800B set', 'Ok \u202E set']) {
  const r = await t.app.inject({ method: 'POST', url: '/api/videoset', headers: { cookie }, payload: { set_name: name, number_of_weeks: 1, videos_in_week: 1 } });
  console.log(r.statusCode, r.body.slice(0, 200));
  const q = await t.app.inject({ url: '/api/participant?q=' + encodeURIComponent('a\u0000b'), headers: { cookie } });
  console.log('q', q.statusCode, q.body.slice(0, 200));
}
await t.close();
