/**
 * The fan's session with one partner proxy, shared by every card of the page that votes through that proxy. The
 * session itself lives in the proxy's cookie (or, where the browser refuses it, in the page's session frame:
 * `proxy-transport.ts`); the page only learns whether the fan is signed in and their user id
 * (`GET /auth/session`). When a card signs in, out or as someone else, every card of the page hears it at once, other
 * documents of this origin over a BroadcastChannel, and the page's iframe banners through their host loader
 * (`session-events.ts`). What arrives from elsewhere is only a hint: this document asks the proxy again.
 */
import { proxyClient, type ProxyClientError, type ProxyFetch } from '../../src/contracts/proxy-client.ts';
import type { SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { sessionPath, signOutPath } from '../../src/contracts/proxy-paths.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { frameCallerOf, type ProxyCaller } from './proxy-transport.ts';
import {
  sessionChangedEvent,
  sessionChannelName,
  sessionCheckEvent,
  sessionEventOrigin,
} from './session-events.ts';

/** Signed in (and who), signed out, or not known yet (the first read has not answered). */
export type FanSession =
  | { readonly state: 'unknown' }
  | { readonly state: 'signed-out' }
  | { readonly state: 'signed-in'; readonly userId: string };

export interface PageSession {
  readonly current: FanSession;
  /** How many listeners follow the session (the page's cards that vote through the proxy, while on the page). */
  readonly subscribers: number;
  /** `listener` hears the session now and at every change; returns the unsubscribe. */
  subscribe(listener: (session: FanSession) => void): () => void;
  /** Re-reads the session from the proxy (coalesced); listeners hear it if it changed. */
  check(): Promise<FanSession>;
  /** A card of this page changed the session (signed in or as someone else): re-read, and tell the other documents. */
  changed(): Promise<FanSession>;
  /** Signs the fan out at the proxy (which revokes their tokens), then tells every card and document. */
  signOut(): Promise<void>;
}

const sessions = new Map<string, PageSession>();

/** The page's one session for `proxyUrl`. */
export function pageSession(proxyUrl: string, fetchImpl?: ProxyFetch): PageSession {
  let session = sessions.get(proxyUrl);
  if (!session) sessions.set(proxyUrl, (session = createPageSession(proxyUrl, fetchImpl)));
  return session;
}

function createPageSession(proxyUrl: string, fetchImpl?: ProxyFetch): PageSession {
  const proxy = proxyClient(proxyUrl, fetchImpl);
  const proxyOrigin = new URL(proxyUrl).origin;
  // Through the page's session frame once it holds the fan's session, else with the proxy's cookie.
  const call: ProxyCaller = (path, init) => (frameCallerOf(proxyOrigin) ?? proxy.call)(path, init);
  const listeners = new Set<(session: FanSession) => void>();
  let current: FanSession = { state: 'unknown' };
  let reading: Promise<FanSession> | undefined;
  const channel =
    typeof BroadcastChannel === 'function' ? new BroadcastChannel(sessionChannelName) : undefined;

  function set(next: FanSession): void {
    const same =
      next.state === current.state &&
      (next.state !== 'signed-in' || (current.state === 'signed-in' && next.userId === current.userId));
    current = next;
    if (!same) for (const listener of [...listeners]) listener(next);
  }

  function check(): Promise<FanSession> {
    reading ??= (async () => {
      try {
        // A failed read (throttled, unavailable) says nothing about the session: what the page knew stands.
        const body = await call(sessionPath);
        const status = (isRecord(body) ? body : {}) as Partial<SessionStatus>;
        set(
          status.signedIn === true && typeof status.userId === 'string'
            ? { state: 'signed-in', userId: status.userId }
            : { state: 'signed-out' },
        );
      } catch {
        // The proxy could not say: what the page knew stands (a fan never seen signed in reads as signed out).
        if (current.state === 'unknown') set({ state: 'signed-out' });
      } finally {
        reading = undefined;
      }
      return current;
    })();
    return reading;
  }

  function tellOthers(): void {
    channel?.postMessage({ type: sessionChangedEvent, proxy: proxyOrigin });
    window.dispatchEvent(new CustomEvent(sessionChangedEvent, { detail: proxyOrigin }));
  }

  // Hints from elsewhere: another document of this origin, or a banner of this page through its bridge.
  channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isRecord(event.data) && event.data.type === sessionChangedEvent && event.data.proxy === proxyOrigin)
      void check();
  });
  window.addEventListener(sessionCheckEvent, (event) => {
    if (sessionEventOrigin(event) === proxyOrigin) void check();
  });
  // Back to a tab after a while: the fan may have signed in or out elsewhere.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && current.state !== 'unknown') void check();
  });

  return {
    get current() {
      return current;
    },
    get subscribers() {
      return listeners.size;
    },
    subscribe(listener) {
      listeners.add(listener);
      if (current.state === 'unknown') void check();
      else listener(current);
      return () => {
        listeners.delete(listener);
      };
    },
    check,
    async changed() {
      // A read started before the change may answer the old session: wait for it, then read again.
      await reading;
      const next = await check();
      tellOthers();
      return next;
    },
    async signOut() {
      await call(signOutPath, { method: 'POST' }).catch((error: unknown) => {
        // Signed out already (401): the same outcome.
        if ((error as ProxyClientError).status !== 401) throw error;
      });
      set({ state: 'signed-out' });
      tellOthers();
    },
  };
}
