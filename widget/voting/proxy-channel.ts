import {
  csrfHeaderName,
  csrfHeaderValue,
  proxyRoutes,
  type ProxyErrorBody,
  type SessionStatus,
} from '../../src/contracts/proxy-contract.ts';
import { isSignInResultMessage } from '../messages/sign-in-message.ts';
import { isRecord } from '../messages/shape.ts';
import { appendTracking } from '../tracking/tracking.ts';
import type { FanPollView, VoteChannel } from './vote-channel.ts';
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
    throw new WidgetError(await errorCode(response), `The partner proxy answered ${response.status}.`);
  }

  async function isSignedIn(): Promise<boolean> {
    const body: unknown = await (await call(proxyRoutes.session)).json();
    return isRecord(body) && (body as Partial<SessionStatus>).signedIn === true;
  }

  return {
    via: 'popup',
    isSignedIn,
    signIn(tracking) {
      const params = appendTracking(new URLSearchParams({ origin: location.origin }), tracking);
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
            if (result.ok || result.error === 'access_denied') resolve(result.ok);
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
      return readFanView(body);
    },
    async vote(pollId, answerId) {
      await call(proxyRoutes.vote(pollId), { method: 'POST', body: JSON.stringify({ answerId }) });
    },
  };
}

/** The fan's view out of a user-context poll (`{ data: Poll }`); anything unreadable counts as not voted. */
export function readFanView(body: unknown): FanPollView {
  const poll = isRecord(body) && isRecord(body.data) ? body.data : {};
  const answers = Array.isArray(poll.answers) ? poll.answers.filter(isRecord) : [];
  return {
    userVote: poll.userVote === true,
    answers: answers.flatMap((answer) =>
      typeof answer.id === 'string'
        ? [
            typeof answer.voteStatus === 'string'
              ? { id: answer.id, voteStatus: answer.voteStatus }
              : { id: answer.id },
          ]
        : [],
    ),
  };
}

async function errorCode(response: Response): Promise<WidgetErrorCode> {
  if (response.status === 401) return 'sign-in-required';
  let code = '';
  try {
    const body = (await response.json()) as Partial<ProxyErrorBody>;
    code = typeof body.error?.code === 'string' ? body.error.code : '';
  } catch {
    // Not JSON: the status alone decides.
  }
  if (/holder/i.test(code)) return 'not-holder';
  if (code === 'vote_refused') return 'vote-refused';
  if (/closed|not_open/i.test(code)) return 'poll-closed';
  if (/sign|session|invalid_token/i.test(code)) return 'sign-in-required';
  return 'vote-failed';
}
