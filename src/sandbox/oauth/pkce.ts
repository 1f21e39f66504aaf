import { createHash, timingSafeEqual } from 'node:crypto';

export type PkceMethod = 'S256' | 'plain';

/** RFC 7636 §4.1 and §4.2: 43 to 128 unreserved characters. */
const pkceValuePattern = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isWellFormedPkceValue(value: string): boolean {
  return pkceValuePattern.test(value);
}

/** Whether a code verifier matches the challenge recorded at authorize time. */
export function verifyPkce(challenge: string, method: PkceMethod, verifier: string): boolean {
  if (!isWellFormedPkceValue(verifier)) return false;
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const expected = Buffer.from(challenge);
  const actual = Buffer.from(computed);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
