import {
  proxyClient,
  type ProxyCall,
  type ProxyClientError,
  type ProxyFetch,
} from '../../src/contracts/proxy-client.ts';
import {
  proxyRoutes,
  type SessionHandoffRequest,
  type SessionStatus,
} from '../../src/contracts/proxy-contract.ts';
import { isSignInResultMessage } from '../messages/sign-in-message.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { appendTracking } from '../../src/contracts/tracking.ts';
import { fanViewOf } from './read-fan-view.ts';
import { refusalCode } from './refusal-code.ts';
import type { VoteChannel } from './vote-channel.ts';
import { WidgetError, type WidgetErrorCode } from './widget-error.ts';

/** Votes through the partner proxy's session: a sign-in popup, then cookie + CSRF-header requests. */
export function proxyChannel(proxyUrl: string, fetchImpl?: ProxyFetch): VoteChannel {
  const proxyOrigin = new URL(proxyUrl).origin;
  const proxy = proxyClient(proxyUrl, fetchImpl);

  /** The answer's body; a refusal or no answer as the card's error, with the client's error as the cause. */
  async function call(path: string, init?: ProxyCall): Promise<unknown> {
    try {
      return await proxy.call(path, init);
    } catch (error) {
      throw widgetError(error as ProxyClientError);
    }
  }

  const signedInBody = (body: unknown): boolean =>
    isRecord(body) && (body as Partial<SessionStatus>).signedIn === true;

  async function isSignedIn(): Promise<boolean> {
    return signedInBody(await call(proxyRoutes.session));
  }

  /**
   * Turns the popup's handoff code into a session cookie in this page's own cookie partition (the popup's cookie
   * landed in the proxy site's). Once, right away, never stored or logged. The answer's body is never the proof:
   * only a session read from this page says the cookie stuck (a browser that refuses third-party cookies accepts
   * the answer and drops its cookie).
   */
  async function redeemHandoff(handoff: string): Promise<boolean> {
    const request: SessionHandoffRequest = { handoff };
    const redeemed = await call(proxyRoutes.sessionHandoff, { method: 'POST', body: request }).then(
      signedInBody,
      // Refused (400 invalid_handoff, 403) or unreachable: the session check below has the last word.
      () => false,
    );
    if (await isSignedIn().catch(() => false)) return true;
    throw redeemed
      ? new WidgetError('cookies-blocked', 'This browser refuses the proxy’s cookies on this page.')
      : new WidgetError('sign-in-failed', 'The sign-in could not be carried over to this page.');
  }

  return {
    via: 'popup',
    isSignedIn,
    signIn(tracking) {
      // `handoff=1`: the success message carries a code this document redeems for a cookie of its own partition.
      const params = appendTracking(new URLSearchParams({ origin: location.origin, handoff: '1' }), tracking);
      const popup = window.open(
        `${proxy.url(proxyRoutes.signIn)}?${params}`,
        'fan-polls-sign-in',
        'popup,width=480,height=680',
      );
      if (!popup) return Promise.reject(new WidgetError('popup-blocked', 'The sign-in window was blocked.'));
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
    },
    async fanView(pollId) {
      const body = await call(proxyRoutes.userPoll(pollId));
      return fanViewOf(isRecord(body) ? body.data : undefined);
    },
    async vote(pollId, answerId) {
      try {
        await call(proxyRoutes.vote(pollId), { method: 'POST', body: { answerId } });
        return answerId;
      } catch (error) {
        // A failed vote may still have counted: the settling code (loaded then) decides, from the fan's poll.
        if ((error as WidgetError).code !== 'vote-failed') throw error;
        return (await import('./settle-vote.ts')).settleVote(this, pollId, error as WidgetError);
      }
    },
  };
}

/** The card's code for a failed proxy call; the client's coded error stays as the cause. */
function widgetError(error: ProxyClientError): WidgetError {
  const code: WidgetErrorCode =
    error.status === 401 || error.code === 'not_signed_in'
      ? 'sign-in-required'
      : error.code === 'vote_refused'
        ? refusalCode(error.reason)
        : 'vote-failed';
  return new WidgetError(code, error.message, { cause: error });
}
