import type { Context } from 'hono';

/** Headers that each proxy hop appends to (`client, proxy1, proxy2`); others carry one address, set by the edge. */
const appendedListHeaders = new Set(['x-forwarded-for']);

/**
 * The client's address in a forwarding header, or undefined when it holds none. In an appended list only the
 * entries on the right were written by the trusted hops; the ones on the left are the client's own word. So the
 * client is the entry `trustedHops` places from the right (the leftmost when the list is shorter: then every entry
 * came from a trusted hop). A single-value header (`CF-Connecting-IP`, `X-Real-IP`) is read as it is.
 */
export function addressFromHeader(
  value: string | undefined,
  header: string,
  trustedHops: number,
): string | undefined {
  if (value === undefined) return undefined;
  if (!appendedListHeaders.has(header.toLowerCase())) return value.split(',')[0]?.trim() || undefined;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries[Math.max(0, entries.length - trustedHops)];
}

/** The rate limits' client key: the configured header's address when there is one, else the runtime adapter's. */
export function clientAddressReader(
  header: string | undefined,
  trustedHops: number,
  fallback: (c: Context) => string,
): (c: Context) => string {
  if (header === undefined) return fallback;
  return (c) => addressFromHeader(c.req.header(header), header, trustedHops) ?? fallback(c);
}
