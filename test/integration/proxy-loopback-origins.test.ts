// The sandbox preset allows every page on this machine (FAN_POLLS_ALLOW_LOOPBACK_ORIGINS, on by default there), so
// that a page on a new local port (`python3 -m http.server`, a Vite dev server) works without restarting the proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './proxy-harness.ts';

let sandboxDefault: Harness;
let listedOnly: Harness;

beforeAll(async () => {
  [sandboxDefault, listedOnly] = await Promise.all([
    startHarness(),
    startHarness({ allowLoopbackOrigins: false }),
  ]);
});

afterAll(async () => {
  await Promise.all([sandboxDefault.close(), listedOnly.close()]);
});

describe('loopback page origins in the sandbox preset', () => {
  it('grants CORS to a page on any local port, by default', async () => {
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
      const response = await sandboxDefault.call('/api/polls', { origin });
      expect(response.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
  });

  it('lets local pages frame the banner with a frame-ancestors every engine accepts', async () => {
    const banner = await sandboxDefault.call('/widget/embed/poll.html?poll=p');
    expect(banner.status).toBe(200);
    const csp = banner.headers.get('content-security-policy') ?? '';
    const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    expect(ancestors).toEqual(expect.arrayContaining(['http://localhost:*', 'http://127.0.0.1:*']));
    // CSP's host-source grammar: no IPv6 literal (`http://[::1]:*` is refused with a console error).
    for (const source of ancestors)
      expect(source).toMatch(/^('self'|https?:\/\/(\*\.)?[a-z0-9.-]+(:(\d+|\*))?)$/);
  });

  it('still refuses other sites, and local pages when the setting is off', async () => {
    const other = await sandboxDefault.call('/api/polls', { origin: 'https://evil.example' });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const local = await listedOnly.call('/api/polls', { origin: 'http://localhost:5173' });
    expect(local.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('GET /api/origin', () => {
  it('tells any page whether its origin is allowed, readable everywhere and never cached', async () => {
    const refused = await listedOnly.call('/api/origin', { origin: 'http://localhost:5173' });
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('cache-control')).toBe('private, no-store');
    expect(await refused.json()).toEqual({ origin: 'http://localhost:5173', allowed: false });
    const local = await sandboxDefault.call('/api/origin', { origin: 'http://localhost:5173' });
    expect(await local.json()).toEqual({ origin: 'http://localhost:5173', allowed: true });
  });
});
