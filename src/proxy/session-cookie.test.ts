import { Hono } from 'hono';
import { setSignedCookie } from 'hono/cookie';
import { describe, expect, it } from 'vitest';
import { sessionCookieName, sessionIdReader } from './session-cookie.ts';

const secret = 'a session secret of the test, long enough';

/** A signed session cookie's `name=value` for `id`, as the proxy sets it. */
async function signedCookie(id: string, withSecret = secret): Promise<string> {
  const app = new Hono();
  app.get('/', async (c) => {
    await setSignedCookie(c, sessionCookieName, id, withSecret, { path: '/', secure: true });
    return c.body(null, 204);
  });
  const line = (await app.request('/')).headers.get('set-cookie') ?? '';
  return line.split(';', 1)[0] ?? '';
}

function appReading(readId: ReturnType<typeof sessionIdReader>): Hono {
  const app = new Hono();
  app.get('/', async (c) => c.json({ id: (await readId(c)) ?? null }));
  return app;
}

describe('sessionIdReader', () => {
  it('answers the id of a validly signed cookie every time, and never one whose value or signature changed', async () => {
    const app = appReading(sessionIdReader(secret, false));
    const read = async (cookie: string) =>
      ((await (await app.request('/', { headers: { Cookie: cookie } })).json()) as { id: string | null }).id;
    const good = await signedCookie('grant.session');
    expect(await read(good)).toBe('grant.session');
    // Remembered now; the same value again, and values that differ from it in the id or the signature.
    expect(await read(good)).toBe('grant.session');
    const value = decodeURIComponent(good.slice(good.indexOf('=') + 1));
    const signature = value.slice(value.lastIndexOf('.') + 1);
    const forgedId = `${sessionCookieName}=${encodeURIComponent(`grant.other.${signature}`)}`;
    expect(await read(forgedId)).toBeNull();
    const otherSecret = await signedCookie('grant.session', 'another secret, as long as the first one');
    expect(await read(otherSecret)).toBeNull();
    expect(await read(`${sessionCookieName}=`)).toBeNull();
    expect(await read('')).toBeNull();
  });
});
