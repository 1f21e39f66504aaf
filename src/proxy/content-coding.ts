import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
/**
 * Gzip for an answer the proxy builds once and serves many times (the drawn card: `drawn-card.ts`), compressed once
 * when it is built, with the platform's `CompressionStream` (Node and Workers alike). A CDN in front would compress
 * it too; without one a phone on a slow network would otherwise wait for four times the bytes.
 */

/** `body`, gzip-compressed. */
export async function gzipOf(body: string): Promise<Uint8Array<ArrayBuffer>> {
  const compressed = new Blob([body]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

/**
 * The coding this client takes that the proxy prefers among `supports` (in the proxy's order of preference), by
 * `Accept-Encoding`'s qualities (RFC 9110, 12.5.3): the highest quality wins, the proxy's order breaks ties (browsers
 * list gzip first with the same quality as br); a coding not named takes `*`'s quality. `identity` when it takes none.
 */
export function preferredCoding<Coding extends string>(
  c: Context,
  supports: readonly Coding[],
): Coding | 'identity' {
  return accepts(c, {
    header: 'Accept-Encoding',
    supports: [...supports],
    default: 'identity',
    match: (given, { default: fallback }) => {
      const quality = (name: string) =>
        given.find((each) => each.type.toLowerCase() === name)?.q ??
        given.find((each) => each.type === '*')?.q ??
        0;
      let best = fallback;
      let bestQuality = 0;
      for (const name of supports)
        if (quality(name) > bestQuality) [best, bestQuality] = [name, quality(name)];
      return best;
    },
  }) as Coding | 'identity';
}

/**
 * `answer` (built from the identity bytes) as the client of `c` takes it (its `Accept-Encoding`): `gzipped` with
 * `Content-Encoding: gzip` and a weak ETag (the same content, other bytes; `If-None-Match` compares weakly) when it
 * takes gzip, else as it is. Either way `Vary` names `Accept-Encoding`, so that a shared cache keeps the two apart.
 */
export function withContentCoding(answer: Response, gzipped: Uint8Array<ArrayBuffer>, c: Context): Response {
  if (preferredCoding(c, ['gzip']) === 'identity') return varyingByEncoding(answer);
  return encodedAs(answer, 'gzip', gzipped);
}

/** `answer` as it is, its `Vary` naming `Accept-Encoding` (another client gets other bytes). */
export function varyingByEncoding(answer: Response): Response {
  const headers = new Headers(answer.headers);
  headers.set('Vary', [headers.get('Vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  return new Response(answer.body, { status: answer.status, headers });
}

/**
 * `answer` (built from the identity bytes) with `encoded` as its body in `coding`: `Content-Encoding`, the encoded
 * length, a weak ETag (the same content, other bytes; `If-None-Match` compares weakly), and `Vary: Accept-Encoding`.
 * A 304 keeps no body.
 */
export function encodedAs(answer: Response, coding: string, encoded: Uint8Array): Response {
  const headers = new Headers(answer.headers);
  headers.set('Vary', [headers.get('Vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  const etag = headers.get('ETag');
  if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
  if (answer.status !== 200) return new Response(null, { status: answer.status, headers });
  headers.set('Content-Encoding', coding);
  headers.set('Content-Length', String(encoded.byteLength));
  return new Response(encoded as Uint8Array<ArrayBuffer>, { status: 200, headers, ...alreadyEncoded });
}

/**
 * Workers' `ResponseInit` extension for a body that is already in its `Content-Encoding`: without it the runtime
 * compresses the body again (a client would get gzip inside gzip). Node's `Response` ignores the field.
 */
const alreadyEncoded = { encodeBody: 'manual' } as ResponseInit;
