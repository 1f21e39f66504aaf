/**
 * How the page's calls reach a proxy whose cookie the browser refuses on this page: through the page's session frame
 * (`voting/frame-session-host.ts`), once a sign-in handed the fan's session to it. The page's session and the proxy
 * channel both ask here first, so every card of the page follows that one session.
 */
import type { ProxyCall } from '../../src/contracts/proxy-client.ts';

/** A proxy call: the answer's body, or a `ProxyClientError`. */
export type ProxyCaller = (path: string, call?: ProxyCall) => Promise<unknown>;

const frames = new Map<string, ProxyCaller>();

/** The session frame's caller for the proxy of `proxyOrigin`, once the page uses one. */
export function frameCallerOf(proxyOrigin: string): ProxyCaller | undefined {
  return frames.get(proxyOrigin);
}

/** From now on the page's calls to the proxy of `proxyOrigin` go through its session frame. */
export function callThroughFrame(proxyOrigin: string, caller: ProxyCaller): void {
  frames.set(proxyOrigin, caller);
}
