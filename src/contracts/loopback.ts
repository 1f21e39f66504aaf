/**
 * What counts as loopback, where plain http is allowed (the local sandbox, a partner's test proxy): `localhost`,
 * 127.0.0.0/8 and ::1. The sandbox keeps its own copy on purpose (it pins the spec).
 */

/** `hostname` as `URL` gives it (IPv6 in brackets, numbers normalised: `127.1` is `127.0.0.1`). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Whether `url` (any URL or origin) is on a loopback host; false when it is not a URL. */
export function isLoopbackUrl(url: string | URL): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
