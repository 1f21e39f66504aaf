import {
  proxyClient,
  type ProxyCall,
  type ProxyClientError,
  type ProxyFetch,
} from '../../src/contracts/proxy-client.ts';
import type { SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { sessionPath, signInPath, userPollPath, votePath } from '../../src/contracts/proxy-paths.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { appendTracking, type TrackingParameters } from '../../src/contracts/tracking.ts';
import { appendCardOfSignIn } from './sign-in-params.ts';
import { popupSignIn } from './popup-sign-in.ts';
import { redeemHandoff } from './redeem-handoff.ts';
import { askableCookiesBlocked, canAskStorageAccess, requestStorageAccess } from './storage-access.ts';
import { frameChallengeParam } from '../../src/contracts/frame-session-contract.ts';
import { callThroughFrame, frameCallerOf } from '../session/proxy-transport.ts';
import { cookieRefusalRemembered, frameSessionOffered, rememberCookieRefusal } from './cookie-refusal.ts';
import type { FrameSession } from './frame-session-host.ts';
import { fanViewOf } from './read-fan-view.ts';
import { refusalCode } from './refusal-code.ts';
import type { VoteChannel } from './vote-channel.ts';
import { stateUnavailable, WidgetError, type WidgetErrorCode } from './widget-error.ts';

/** The proxy's channel: a `VoteChannel`, and the redeeming of the code a sign-in without a pop-up brought back. */
export interface ProxyVoteChannel extends VoteChannel {
  /** True once this page holds the session (see `redeemHandoff`); else a `WidgetError`. */
  redeemHandoff(handoff: string): Promise<boolean>;
  /** The next sign-in asks the browser for this frame's cookies (`storage-access.ts`), not for a sign-in. */
  asksStorageAccess(): boolean;
}

const proxies = new Map<string, ProxyVoteChannel>();

/**
 * The page's proxy channel for `proxyUrl` (one per proxy), usable synchronously (from a click) before the extension's
 * handshake has answered. In the card's details chunk: the voting imports it after the first paint.
 */
export function proxyVoteChannel(proxyUrl: string | undefined): ProxyVoteChannel | undefined {
  if (!proxyUrl) return undefined;
  let channel = proxies.get(proxyUrl);
  if (!channel) proxies.set(proxyUrl, (channel = proxyChannel(proxyUrl)));
  return channel;
}

/**
 * Votes through the partner proxy's session: a sign-in popup (or the page's own trip, `redirect-sign-in.ts`), then
 * cookie + CSRF-header requests.
 */
export function proxyChannel(proxyUrl: string, fetchImpl?: ProxyFetch): ProxyVoteChannel {
  const proxyOrigin = new URL(proxyUrl).origin;
  const proxy = proxyClient(proxyUrl, fetchImpl);

  /** The answer's body; a refusal or no answer as the card's error, with the client's error as the cause. */
  async function call(path: string, init?: ProxyCall): Promise<unknown> {
    try {
      // Through the page's session frame once it holds the fan's session (`proxy-transport.ts`), else the cookie.
      return await (frameCallerOf(proxyOrigin) ?? proxy.call)(path, init);
    } catch (error) {
      throw widgetError(error as ProxyClientError);
    }
  }

  const signedInBody = (body: unknown): boolean =>
    isRecord(body) && (body as Partial<SessionStatus>).signedIn === true;

  async function isSignedIn(): Promise<boolean> {
    return signedInBody(await call(sessionPath));
  }

  // Set once a sign-in's cookie did not stick in a frame that can ask the browser for it.
  let askStorageAccess = false;
  // On a page of another origin than the proxy's, once the browser refused the proxy's cookie here (now or on an
  // earlier visit): the session frame, ready once it gave its challenge.
  let frame: FrameSession | undefined;
  let opening: Promise<unknown> | undefined;
  const openFrame = () => {
    opening ??= import('./frame-session-host.ts')
      .then(({ openFrameSession }) => openFrameSession(proxyUrl))
      .then((opened) => (frame = opened))
      .catch(() => (opening = undefined));
  };
  if (cookieRefusalRemembered(proxyOrigin)) openFrame();

  /**
   * A `cookies-blocked` after a sign-in: in a frame of the proxy's origin the next click asks for its cookies. After a
   * pop-up's (`viaPopup`), on a page of another origin, the next sign-in goes to a session frame (remembered for this
   * page's later visits); a sign-in without a pop-up cannot use one, as the page's trip ends the frame.
   */
  function noteBlockedCookies(error: unknown, viaPopup = false): never {
    if (!(error instanceof WidgetError) || error.code !== 'cookies-blocked') throw error;
    if (canAskStorageAccess(proxyOrigin)) {
      askStorageAccess = true;
      throw askableCookiesBlocked(error);
    }
    // A frame asked for before that is still not there (a page whose CSP refuses it) offers nothing new.
    if (!viaPopup || location.origin === proxyOrigin || frameCallerOf(proxyOrigin) || (opening && !frame))
      throw error;
    rememberCookieRefusal(proxyOrigin);
    openFrame();
    throw new WidgetError(error.code, error.message, { cause: frameSessionOffered });
  }

  function popupSignInFrom(tracking: TrackingParameters, pollId: string | undefined): Promise<boolean> {
    // `handoff=1`: the success message carries a code this document redeems for a cookie of its own partition, or
    // with the session frame's challenge, that only the frame redeems.
    const params = new URLSearchParams({ origin: location.origin, handoff: '1' });
    const toFrame = frame;
    if (toFrame) params.set(frameChallengeParam, toFrame.challenge());
    appendCardOfSignIn(params, tracking, pollId);
    const popup = window.open(
      `${proxy.url(signInPath)}?${params}`,
      'fan-polls-sign-in',
      'popup,width=480,height=680',
    );
    if (!popup) return Promise.reject(new WidgetError('popup-blocked', 'The sign-in window was blocked.'));
    // In the same details chunk as this channel: its message listener is added at once, before any message of the
    // popup can arrive.
    const redeemInFrame = toFrame && {
      redeem: async (handoff: string) => {
        const signedIn = await toFrame.redeem(handoff).catch((error: unknown) => {
          throw widgetError(error as ProxyClientError);
        });
        if (signedIn) callThroughFrame(proxyOrigin, toFrame.call);
        return signedIn;
      },
    };
    return popupSignIn(popup, proxyOrigin, { call, isSignedIn, ...redeemInFrame }).catch((error: unknown) =>
      noteBlockedCookies(error, true),
    );
  }

  return {
    via: 'popup',
    isSignedIn,
    signIn(tracking, pollId) {
      if (!askStorageAccess) return popupSignInFrom(tracking, pollId);
      // Straight from the click, the browser's prompt; granted, the session the sign-in left on the proxy's site
      // answers, else a sign-in of its own (a window the browser may still open).
      return requestStorageAccess().then(async () => {
        askStorageAccess = false;
        return (await isSignedIn()) || popupSignInFrom(tracking, pollId);
      });
    },
    redeemHandoff: (handoff) =>
      redeemHandoff({ call, isSignedIn }, handoff).catch((error: unknown) => noteBlockedCookies(error)),
    asksStorageAccess: () => askStorageAccess,
    async fanView(pollId) {
      const body = await call(userPollPath(pollId));
      return fanViewOf(isRecord(body) ? body.data : undefined);
    },
    async vote(pollId, answerId, tracking = {}) {
      // The card's tracking parameters in the query, where the proxy counts the vote under them.
      const query = appendTracking(new URLSearchParams(), tracking).toString();
      try {
        await call(votePath(pollId) + (query && `?${query}`), { method: 'POST', body: { answerId } });
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
        : error.code === stateUnavailable
          ? 'voting-unavailable'
          : 'vote-failed';
  return new WidgetError(code, error.message, { cause: error });
}
