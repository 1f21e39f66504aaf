// The proxy's own pages (the iframe banner's page under /widget/, the configurator) sign fans in and vote like an
// allowed page: the banner a partner loads from the proxy runs on the proxy's origin. Other origins stay refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfHeaderName, csrfHeaderValue } from '../../src/contracts/proxy-contract.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';

let stack: SandboxAndProxy;

beforeAll(async () => {
  stack = await startSandboxAndProxy({
    proxy: { env: { FAN_POLLS_ALLOWED_ORIGINS: 'https://www.club.example' } },
  });
});

afterAll(async () => {
  await stack.close();
});

const login = (origin: string) =>
  fetch(`${stack.proxy.url}/auth/login?origin=${encodeURIComponent(origin)}&handoff=1`, {
    redirect: 'manual',
  });

describe('the proxy’s own origin', () => {
  it('may start a sign-in (the banner’s page), as an allowed page may; another origin may not', async () => {
    const own = await login(new URL(stack.proxy.url).origin);
    expect(own.status).toBe(302);
    expect(own.headers.get('location')).toContain(`${stack.sandbox.authUrl}/oauth2/authorize?`);
    expect((await login('https://www.club.example')).status).toBe(302);
    const other = await login('https://evil.example');
    expect(other.status).toBe(400);
    expect(other.headers.get('location')).toBeNull();
  });

  it('passes the fan routes’ origin check (then needs a session), with the CSRF header still required', async () => {
    const readMe = (
      origin: string,
      headers: Record<string, string> = { [csrfHeaderName]: csrfHeaderValue },
    ) => fetch(`${stack.proxy.url}/api/user/me`, { headers: { Origin: origin, ...headers } });
    const code = async (answer: Response) =>
      ((await answer.json()) as { error: { code: string } }).error.code;
    const own = new URL(stack.proxy.url).origin;
    expect(await code(await readMe(own))).toBe('not_signed_in');
    expect(await code(await readMe(own, {}))).toBe('csrf_header_missing');
    expect(await code(await readMe('https://evil.example'))).toBe('origin_not_allowed');
  });
});
