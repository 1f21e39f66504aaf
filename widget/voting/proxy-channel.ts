import {
  csrfHeaderName,
  csrfHeaderValue,
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

const requestTimeoutMs = 10_000;

/** Votes through the partner proxy's session: a sign-in popup, then cookie + CSRF-header requests. */
export function proxyChannel(
  proxyUrl: string,
  fetchImpl: typeof fetch = fetch.bind(globalThis),
): VoteChannel {
  const proxyOrigin = new URL(proxyUrl).origin;
  const base = proxyUrl.replace(/\/+$/, '');

  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      response = await fetchImpl(base + path, {
        ...init,
        credentials: 'include',
        headers: {
          [csrfHeaderName]: csrfHeaderValue,
          ...(init.body ? { 'Content-Type': 'application/json' } : {}),
        },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      throw new WidgetError('vote-failed', 'The partner proxy could not be reached.', { cause: error });
    }
    if (response.ok) return response;
    throw await answerError(response);
  }

  const signedInBody = (body: unknown): boolean =>
    isRecord(body) && (body as Partial<SessionStatus>).signedIn === true;

  async function isSignedIn(): Promise<boolean> {
    return signedInBody(await (await call(proxyRoutes.session)).json());
  }

  /**
   * Turns the popup's handoff code into a session cookie in this page's own cookie partition (the popup's cookie
   * landed in the proxy site's). Once, right away, never stored or logged; if the proxy refuses it, the session
   * this page can already see decides.
   */
  async function redeemHandoff(handoff: string): Promise<boolean> {
    const request: SessionHandoffRequest = { handoff };
    try {
      const init = { method: 'POST', body: JSON.stringify(request) };
      if (signedInBody(await (await call(proxyRoutes.sessionHandoff, init)).json())) return true;
    } catch {
      // Refused (400 invalid_handoff, 403) or unreachable: the session check below has the last word.
    }
    if (await isSignedIn().catch(() => false)) return true;
    throw new WidgetError('sign-in-failed', 'The sign-in could not be carried over to this page.');
  }

  return {
    via: 'popup',
    isSignedIn,
    signIn(tracking) {
      // `handoff=1`: the success message carries a code this document redeems for a cookie of its own partition.
      const params = appendTracking(new URLSearchParams({ origin: location.origin, handoff: '1' }), tracking);
      const popup = window.open(
        `${base}${proxyRoutes.signIn}?${params}`,
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
      const body: unknown = await (await call(proxyRoutes.userPoll(pollId))).json();
      return fanViewOf(isRecord(body) ? body.data : undefined);
    },
    async vote(pollId, answerId) {
      try {
        await call(proxyRoutes.vote(pollId), { method: 'POST', body: JSON.stringify({ answerId }) });
        return answerId;
      } catch (error) {
        // A failed vote may still have counted: the settling code (loaded then) decides, from the fan's poll.
        if ((error as WidgetError).code !== 'vote-failed') throw error;
        return (await import('./settle-vote.ts')).settleVote(this, pollId, error as WidgetError);
      }
    },
  };
}

/** The error for a proxy's refusal: the card's code, and the proxy's own `error.code` as the cause. */
async function answerError(response: Response): Promise<WidgetError> {
  let error: Record<string, unknown> = {};
  try {
    const body: unknown = await response.json();
    if (isRecord(body) && isRecord(body.error)) error = body.error;
  } catch {
    // Not JSON: the status alone decides.
  }
  const code: WidgetErrorCode =
    response.status === 401 || error.code === 'not_signed_in'
      ? 'sign-in-required'
      : error.code === 'vote_refused'
        ? refusalCode(error.reason)
        : 'vote-failed';
  return new WidgetError(code, `The partner proxy answered ${response.status}.`, { cause: error.code });
}
