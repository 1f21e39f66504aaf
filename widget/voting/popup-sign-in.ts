/**
 * The proxy's sign-in popup once it is open: its result message (checked for window, origin and shape), the handoff
 * code redeemed for a cookie of this page's own partition (`redeem-handoff.ts`) or by the page's session frame
 * (`proxy.redeem`), or the proxy's session when the popup
 * closed without a word. In the card's details chunk (re-exported by `card-details.ts`): the popup itself opens in `proxy-channel.ts`,
 * straight from the click.
 */
import { isSignInResultMessage } from '../messages/sign-in-message.ts';
import { redeemHandoff, type HandoffProxy } from './redeem-handoff.ts';
import { stateUnavailable, WidgetError } from './widget-error.ts';

/** Resolves true when the fan signed in through `popup`, false when they cancelled. */
export function popupSignIn(
  popup: Window,
  proxyOrigin: string,
  proxy: HandoffProxy & { readonly redeem?: (handoff: string) => Promise<boolean> },
): Promise<boolean> {
  const { isSignedIn } = proxy;
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
        if (result.ok)
          resolve(
            result.handoff === undefined
              ? true
              : (proxy.redeem?.(result.handoff) ?? redeemHandoff(proxy, result.handoff)),
          );
        else if (result.error === 'access_denied') resolve(false);
        else
          reject(
            new WidgetError(
              result.error === stateUnavailable ? 'voting-unavailable' : 'sign-in-failed',
              result.message,
            ),
          );
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
