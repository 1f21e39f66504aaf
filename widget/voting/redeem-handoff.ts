/**
 * Turns a sign-in's handoff code into a session cookie in this page's own cookie partition: the code the pop-up posts,
 * or the one a sign-in without a pop-up brings back in the URL fragment. Once, right away, never stored or logged.
 */
import type { ProxyCall } from '../../src/contracts/proxy-client.ts';
import type { SessionHandoffRequest, SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { sessionHandoffPath } from '../../src/contracts/proxy-paths.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { WidgetError } from './widget-error.ts';

/** What the redeeming uses of the proxy channel. */
export interface HandoffProxy {
  /** A proxy call whose failure is the card's `WidgetError`. */
  readonly call: (path: string, init?: ProxyCall) => Promise<unknown>;
  readonly isSignedIn: () => Promise<boolean>;
}

/**
 * True once this page reads a signed-in session; else throws `cookies-blocked` (the proxy took the code but the
 * browser dropped its cookie), `voting-unavailable` (the proxy's shared state did not answer) or `sign-in-failed`
 * (refused: used already, expired, another page's). The answer's body
 * is never the proof: only a session read from this page says the cookie stuck.
 */
export async function redeemHandoff(proxy: HandoffProxy, handoff: string): Promise<boolean> {
  const request: SessionHandoffRequest = { handoff };
  let refusal: unknown;
  const redeemed = await proxy.call(sessionHandoffPath, { method: 'POST', body: request }).then(
    (body) => isRecord(body) && (body as Partial<SessionStatus>).signedIn === true,
    // Refused (400 invalid_handoff, 403) or unreachable: the session check below has the last word.
    (error: unknown) => {
      refusal = error;
      return false;
    },
  );
  if (await proxy.isSignedIn().catch(() => false)) return true;
  // The proxy's shared state was down: said as that, not as a failed sign-in.
  if (refusal instanceof WidgetError && refusal.code === 'voting-unavailable') throw refusal;
  throw redeemed
    ? new WidgetError('cookies-blocked', 'This browser refuses the proxy’s cookies on this page.')
    : new WidgetError('sign-in-failed', 'The sign-in could not be carried over to this page.');
}
