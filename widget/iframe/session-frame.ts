/**
 * The session frame's script (`embed/session.html`, a hidden frame of the proxy's origin on a card's page where the
 * browser keeps no cookie of the proxy's): it holds the fan's session in its own memory, never in a cookie or a
 * storage, and makes the page's closed list of calls with it (`session-frame-messages.ts`). Its verifier never leaves
 * it: the sign-in carries only the challenge, and a handoff code is worth nothing without the verifier. The memory ends
 * with the page: a fan signs in once per page view.
 */
import {
  frameChallengeOf,
  frameSessionHeaderName,
  frameSessionPagePath,
  frameSessionPath,
  frameVerifier,
  type FrameSessionRedeem,
} from '../../src/contracts/frame-session-contract.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { proxyClient, ProxyClientError, type ProxyCall } from '../../src/contracts/proxy-client.ts';
import { signOutPath } from '../../src/contracts/proxy-paths.ts';
import { readOrigin } from '../messages/read-origin.ts';
import {
  readPageToSessionFrame,
  sessionFrameSource,
  type PageToSessionFrame,
  type SessionFrameToPage,
} from '../messages/session-frame-messages.ts';

/** The page this frame serves: the origin its address names, which must be the frame's parent's. */
function pageOriginOf(): string | undefined {
  const named = readOrigin(new URLSearchParams(location.search).get('origin'));
  const ancestors = location.ancestorOrigins as DOMStringList | undefined;
  // Where the browser says who frames this page (Chromium, WebKit), the address must agree with it.
  if (named === undefined || window.parent === window || (ancestors && ancestors[0] !== named))
    return undefined;
  return named;
}

/** What the frame talks to: its parent (the card's page) and the proxy; tests give their own. */
export interface SessionFrameHost {
  readonly parent: Pick<Window, 'postMessage'>;
  readonly fetch: typeof fetch;
}

export function startSessionFrame(
  pageOrigin: string,
  host: SessionFrameHost = { parent: window.parent, fetch: (input, init) => fetch(input, init) },
): void {
  const path = location.pathname;
  const proxyUrl = location.origin + path.slice(0, path.length - frameSessionPagePath.length);
  let credential: string | undefined;
  let verifier = frameVerifier();
  const proxy = proxyClient(proxyUrl, (input, init) =>
    host.fetch(input, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        ...(credential && { [frameSessionHeaderName]: credential }),
      },
    }),
  );

  const post = (message: SessionFrameToPage) => {
    host.parent.postMessage(message, pageOrigin);
  };
  const sendChallenge = async () => {
    post({
      source: sessionFrameSource.frame,
      type: 'challenge',
      challenge: await frameChallengeOf(verifier),
    });
  };

  async function redeem(handoff: string): Promise<unknown> {
    const request: FrameSessionRedeem = { handoff, verifier };
    // One verifier, one sign-in: the next one carries a fresh challenge, whatever this one gave.
    verifier = frameVerifier();
    void sendChallenge();
    const grant = await proxy.call(frameSessionPath, { method: 'POST', body: request });
    if (!isRecord(grant) || typeof grant.credential !== 'string' || typeof grant.userId !== 'string')
      throw new ProxyClientError('proxy_unexpected_answer', 'The proxy answered no session.');
    credential = grant.credential;
    return { signedIn: true, userId: grant.userId };
  }

  async function call(message: Extract<PageToSessionFrame, { type: 'call' }>): Promise<unknown> {
    const init: ProxyCall = { method: message.method, ...(message.body && { body: message.body }) };
    try {
      const body = await proxy.call(message.path, init);
      if (message.path === signOutPath) credential = undefined;
      return body;
    } catch (error) {
      // Signed out at the proxy (another sign-out, an expiry): the credential names nothing any more.
      if (error instanceof ProxyClientError && error.status === 401) credential = undefined;
      throw error;
    }
  }

  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.source !== host.parent || event.origin !== pageOrigin) return;
    const message = readPageToSessionFrame(event.data);
    if (message === undefined) return;
    const answered = message.type === 'redeem' ? redeem(message.handoff) : call(message);
    answered.then(
      (body) => {
        post({
          source: sessionFrameSource.frame,
          type: 'answer',
          id: message.id,
          ok: true,
          ...(body !== undefined && { body }),
        });
      },
      (error: unknown) => {
        const failure =
          error instanceof ProxyClientError ? error : new ProxyClientError('proxy_unreachable', 'No answer.');
        post({
          source: sessionFrameSource.frame,
          type: 'answer',
          id: message.id,
          ok: false,
          code: failure.code,
          ...(failure.status !== undefined && { status: failure.status }),
          ...(failure.reason !== undefined && { reason: failure.reason }),
          ...(failure.retryAfterSeconds !== undefined && { retryAfterSeconds: failure.retryAfterSeconds }),
        });
      },
    );
  });
  void sendChallenge();
}

const pageOrigin = pageOriginOf();
if (pageOrigin !== undefined && location.pathname.endsWith(frameSessionPagePath))
  startSessionFrame(pageOrigin);
