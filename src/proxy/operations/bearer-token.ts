import type { Context } from 'hono';

/**
 * The 401 for a request without `Authorization: Bearer <token>` (compared in constant time), or undefined when it
 * carries it. The header is never logged or echoed.
 */
export async function bearerRefusal(
  c: Context,
  token: string,
  message: string,
): Promise<Response | undefined> {
  if (await sameSecret(c.req.header('Authorization') ?? '', `Bearer ${token}`)) return undefined;
  c.header('WWW-Authenticate', 'Bearer');
  return c.json({ error: { code: 'not_signed_in', message } }, 401);
}

/** Constant-time comparison of two strings through their SHA-256 digests (Web Crypto only). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (text: string) =>
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const [a, b] = await Promise.all([digest(given), digest(expected)]);
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}
