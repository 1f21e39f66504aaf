import type { Context } from 'hono';
import { accepts } from 'hono/accepts';
import { precompressedCodings, type PrecompressedCoding } from '../contracts/precompressed.ts';
import { encodedAs, varyingByEncoding } from './content-coding.ts';
import type { FileReader } from './file-reader.ts';

const identity = 'identity';

/**
 * The coding this client takes that the proxy prefers (Brotli, then gzip), by `Accept-Encoding`'s qualities: the
 * highest quality wins, the proxy's order breaks ties (browsers list gzip first with the same quality as br).
 * `identity` when it takes neither.
 */
export function preferredCoding(c: Context): PrecompressedCoding | typeof identity {
  return accepts(c, {
    header: 'Accept-Encoding',
    supports: precompressedCodings.map((coding) => coding.name),
    default: identity,
    match: (given, { supports, default: fallback }) => {
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
  }) as PrecompressedCoding | typeof identity;
}

/**
 * The build's compressed copy of `path` in the coding this client prefers, when there is one (`precompressFolder`
 * writes them); undefined otherwise, and the file goes out as it is.
 */
export async function precompressedCopy(
  c: Context,
  read: FileReader,
  path: string,
): Promise<{ coding: PrecompressedCoding; body: Uint8Array } | undefined> {
  const coding = preferredCoding(c);
  if (coding === identity) return undefined;
  const suffix = precompressedCodings.find((each) => each.name === coding)?.suffix ?? '';
  const body = await read(`${path}${suffix}`);
  return body === undefined ? undefined : { coding, body };
}

/**
 * A built file's answer (`identity`, made from its bytes) in the client's preferred coding when the build wrote a copy
 * in it; as it is otherwise. Either way it varies by `Accept-Encoding`.
 */
export async function inPreferredCoding(
  c: Context,
  read: FileReader,
  path: string,
  identity: Response,
): Promise<Response> {
  const copy =
    identity.status === 200 || identity.status === 304 ? await precompressedCopy(c, read, path) : undefined;
  return copy === undefined ? varyingByEncoding(identity) : encodedAs(identity, copy.coding, copy.body);
}
