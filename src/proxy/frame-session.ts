/**
 * The credential of a session frame (`frame-session-contract.ts`): a session id signed with the session secret
 * (HMAC-SHA-256), which the frame keeps in its memory and sends as a header. A header is no ambient credential: no
 * form, image or other page sends it. The proxy takes it only from its own origin (`fromOwnOrigin`), and CORS never
 * lets another origin send it.
 */
import type { Context } from 'hono';
import { frameSessionHeaderName } from '../contracts/frame-session-contract.ts';
import { ProxyError } from './errors.ts';
import type { SessionIdReader } from './session-cookie.ts';

export interface FrameCredentials {
  /** The credential naming session `id`. */
  sign(id: string): Promise<string>;
  /** The session id a credential names, or undefined when its signature does not verify. */
  verify(credential: string): Promise<string | undefined>;
}

function base64Url(bytes: ArrayBuffer): string {
  let text = '';
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function frameCredentials(secret: string): FrameCredentials {
  // Imported on first use, not when the app is made (a Worker's global scope).
  let key: Promise<CryptoKey> | undefined;
  const keyOf = () =>
    (key ??= crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(`frame-session:${secret}`),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    ));
  const mac = async (id: string) =>
    base64Url(await crypto.subtle.sign('HMAC', await keyOf(), new TextEncoder().encode(id)));
  return {
    async sign(id) {
      return `${id}~${await mac(id)}`;
    },
    async verify(credential) {
      const at = credential.lastIndexOf('~');
      if (at <= 0 || credential.length > 300) return undefined;
      const id = credential.slice(0, at);
      const expected = await mac(id);
      const given = credential.slice(at + 1);
      // Compared whole, in time independent of where they differ.
      let differ = expected.length ^ given.length;
      for (let index = 0; index < expected.length; index += 1)
        differ |= expected.charCodeAt(index) ^ given.charCodeAt(index);
      return differ === 0 ? id : undefined;
    },
  };
}

/**
 * The request comes from a page of the proxy's own origin, as the browser says: its `Origin`, or none on a same-origin
 * GET. A page of another origin cannot send the frame's header without its `Origin`: the header makes the request a
 * CORS one, which always names the caller. `Sec-Fetch-Site`, where the browser sends it, must agree.
 */
export function fromOwnOrigin(c: Context, ownOrigin: string): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  const origin = c.req.header('Origin');
  return (site === undefined || site === 'same-origin') && (origin === undefined || origin === ownOrigin);
}

/**
 * The request's session id: the frame's credential when it carries one (refused from any other origin than the
 * proxy's own), else the session cookie's (`cookieId`).
 */
export function frameSessionIdReader(
  credentials: FrameCredentials,
  ownOrigin: string,
  cookieId: SessionIdReader,
): SessionIdReader {
  return async (c) => {
    const credential = c.req.header(frameSessionHeaderName);
    if (credential === undefined) return cookieId(c);
    if (!fromOwnOrigin(c, ownOrigin))
      throw new ProxyError('origin_not_allowed', 'A frame session is sent by the proxy’s own pages only.');
    return credentials.verify(credential);
  };
}
