import type { Context } from 'hono';
import { precompressedCodings, type PrecompressedCoding } from '../contracts/precompressed.ts';
import { encodedAs, preferredCoding, varyingByEncoding } from './content-coding.ts';
import type { FileReader } from './file-reader.ts';

/**
 * The build's compressed copy of `path` in the coding this client prefers, when there is one (`precompressFolder`
 * writes them); undefined otherwise, and the file goes out as it is.
 */
async function precompressedCopy(
  c: Context,
  read: FileReader,
  path: string,
): Promise<{ coding: PrecompressedCoding; body: Uint8Array } | undefined> {
  const coding = preferredCoding(
    c,
    precompressedCodings.map((each) => each.name),
  );
  if (coding === 'identity') return undefined;
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
