import { createHash } from 'node:crypto';

/** A UUID (version 5 layout) derived from a name, so that seeded ids stay the same from run to run. */
export function stableUuid(name: string): string {
  const hex = createHash('sha1').update(`fan-polls-sandbox:${name}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A made-up contract address for a poll (`0x` and 40 hex digits). */
export function stableAddress(name: string): string {
  return `0x${createHash('sha256').update(`fan-polls-contract:${name}`).digest('hex').slice(0, 40)}`;
}
