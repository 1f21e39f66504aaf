/**
 * The proxy's sign-in popup once it is open: its result message (checked for window, origin and shape), the handoff
 * code redeemed for a cookie of this page's own partition, or the proxy's session when the popup closed without a
 * word. In the card's details chunk (re-exported by `card-details.ts`): the popup itself opens in `proxy-channel.ts`,
 * straight from the click.
 */
import type { ProxyCall } from '../../src/contracts/proxy-client.ts';
import type { SessionHandoffRequest, SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { sessionHandoffPath } from '../../src/contracts/proxy-paths.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { isSignInResultMessage } from '../messages/sign-in-message.ts';
import { WidgetError } from './widget-error.ts';

/** What the popup's follow-up uses of the proxy channel. */
export interface PopupSignInProxy {
  /** A proxy call whose failure is the card's `WidgetError`. */
  readonly call: (path: string, init?: ProxyCall) => Promise<unknown>;
  readonly isSignedIn: () => Promise<boolean>;
}

/** Resolves true when the fan signed in through `popup`, false when they cancelled. */
export function popupSignIn(popup: Window, proxyOrigin: string, proxy: PopupSignInProxy): Promise<boolean> {
  const { isSignedIn } = proxy;
  /**
   * Turns the popup's handoff code into a session cookie in this page's own cookie partition (the popup's cookie
   * landed in the proxy site's). Once, right away, never stored or logged. The answer's body is never the proof:
   * only a session read from this page says the cookie stuck (a browser that refuses third-party cookies accepts
   * the answer and drops its cookie).
   */
  async function redeemHandoff(handoff: string): Promise<boolean> {
    const request: SessionHandoffRequest = { handoff };
    const redeemed = await proxy.call(sessionHandoffPath, { method: 'POST', body: request }).then(
      (body) => isRecord(body) && (body as Partial<SessionStatus>).signedIn === true,
      // Refused (400 invalid_handoff, 403) or unreachable: the session check below has the last word.
      () => false,
    );
    if (await isSignedIn().catch(() => false)) return true;
    throw redeemed
      ? new WidgetError('cookies-blocked', 'This browser refuses the proxy’s cookies on this page.')
      : new WidgetError('sign-in-failed', 'The sign-in could not be carried over to this page.');
  }

  return new Promise((resolve, reject) => {
    const closedCheck = setInterval(() => {
      // Closed with no message seen: the popup's message can lose the race with its own closing, so the
      // proxy's session has the last word (closing the window without signing in reads as a cancel).
      if (popup.closed)
        finish(() => {
          resolve(isSignedIn().catch(() => false));
        });
    }, 500);
    function onMessage(event: MessageEvent): void {
      // Only the popup we opened, on the proxy's origin, with the contract's exact shape.
      if (event.origin !== proxyOrigin || event.source !== popup || !isSignInResultMessage(event.data))
        return;
      const result = event.data;
      finish(() => {
        // The fan said no on the consent page: a cancel, like closing the window, not a failure.
        if (result.ok) resolve(result.handoff === undefined ? true : redeemHandoff(result.handoff));
        else if (result.error === 'access_denied') resolve(false);
        else reject(new WidgetError('sign-in-failed', result.message));
      });
    }
    function finish(settle: () => void): void {
      clearInterval(closedCheck);
      window.removeEventListener('message', onMessage);
      settle();
    }
    window.addEventListener('message', onMessage);
  });
}
