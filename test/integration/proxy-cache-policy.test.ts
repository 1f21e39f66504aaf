// What a shared cache in front of the proxy (nginx, a CDN) may keep: every route of the proxy's own table is asked, as
// a page and as the fan's browser would ask it, and only the public reads may come back cacheable. Everything else,
// answered or refused, is `private, no-store`, so a route added later cannot forget it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInCacheableGroup, privateAnswerPolicy } from '../../src/proxy/cache-policy.ts';
import { fanHeaders, signIn, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
let cookie: string;

beforeAll(async () => {
  harness = await startHarness({ metricsToken: 'metrics-token-for-the-cache-policy-test' });
  cookie = (await signIn(harness, { username: 'sam' })).cookie ?? '';
}, 30_000);

afterAll(async () => {
  await harness.close();
});

/** A cache may keep an answer whose `Cache-Control` lets a shared cache store it. */
const storableByASharedCache = (policy: string | null): boolean =>
  policy !== null &&
  !/\b(no-store|private)\b/.test(policy) &&
  (/\bs-maxage=[1-9]/.test(policy) || /\bmax-age=[1-9]/.test(policy) || /\bpublic\b/.test(policy));

/** Each route of the app's table with its parameters filled in, once per method. */
function routesOfTheTable(): { method: string; path: string }[] {
  const seen = new Set<string>();
  return harness.proxy.proxy.app.routes
    .filter((route) => route.method !== 'ALL' && !route.path.endsWith('*'))
    .map((route) => ({
      method: route.method,
      path: route.path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, 'a1ab395d-6316-50a7-866a-793a77a174bf'),
    }))
    .filter(({ method, path }) => !seen.has(`${method} ${path}`) && Boolean(seen.add(`${method} ${path}`)));
}

describe('the cache policy of every route', () => {
  it('lets a shared cache keep only the public reads, and marks every other answer private, no-store', async () => {
    const routes = routesOfTheTable();
    // The table is the app's own: sign-in, the fan's routes, the extension's and the operations' are all in it.
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/auth/login', '/auth/session', '/api/user/me', '/extension/token', '/readyz']),
    );
    for (const { method, path } of routes) {
      for (const asked of [{}, { cookie, headers: fanHeaders }]) {
        const answer = await harness.call(path, {
          method,
          ...asked,
          ...(method === 'POST'
            ? { body: '{}', headers: { ...fanHeaders, 'Content-Type': 'application/json' } }
            : {}),
        });
        const policy = answer.headers.get('cache-control');
        const where = `${method} ${path} (${String(answer.status)})`;
        if (method === 'GET' && isInCacheableGroup(path)) continue;
        expect(policy, where).toBe(privateAnswerPolicy);
        expect(storableByASharedCache(policy), where).toBe(false);
      }
    }
  });

  it('answers the public reads cacheable, the poll read among them', async () => {
    const read = await harness.call('/api/polls?limit=1');
    expect(read.status).toBe(200);
    expect(storableByASharedCache(read.headers.get('cache-control'))).toBe(true);
  });

  it('never lets a cache keep an answer that sets a cookie', async () => {
    const login = await harness.call('/auth/login?origin=http%3A%2F%2F127.0.0.1%3A4999', { origin: null });
    expect(login.headers.getSetCookie().length).toBeGreaterThan(0);
    expect(login.headers.get('cache-control')).toBe(privateAnswerPolicy);
  });
});
