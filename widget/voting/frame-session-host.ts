/**
 * The page's side of a session frame (`iframe/session-frame.ts`): a hidden frame of the proxy's origin, added to the
 * page once the browser refused the proxy's cookie here, that holds the fan's session in its own memory. The page
 * sends it calls and handoff codes and hears answers and challenges, each checked for origin, window and shape; it
 * never holds the session itself. Loaded only then (a chunk of its own).
 */
import { frameSessionPagePath } from '../../src/contracts/frame-session-contract.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { ProxyClientError, proxyUnreachable } from '../../src/contracts/proxy-client.ts';
import type { SessionStatus } from '../../src/contracts/proxy-contract.ts';
import {
  readSessionFrameToPage,
  sessionFrameSource,
  type PageToSessionFrame,
} from '../messages/session-frame-messages.ts';
import type { ProxyCaller } from '../session/proxy-transport.ts';

export interface FrameSession {
  readonly call: ProxyCaller;
  /** True once the frame holds the session of the sign-in that ended with `handoff`. */
  redeem(handoff: string): Promise<boolean>;
  /** The challenge the next sign-in carries. */
  challenge(): string;
}

/** How long the page waits for the frame's answer: the frame's own proxy call times out before. */
const answerWaitMs = 15_000;

type Waiting = { resolve: (body: unknown) => void; reject: (error: ProxyClientError) => void };

/** Adds the frame to the page; resolves once it gave its first challenge (never, where the page forbids it). */
export function openFrameSession(proxyUrl: string): Promise<FrameSession> {
  const proxyOrigin = new URL(proxyUrl).origin;
  const iframe = document.createElement('iframe');
  iframe.src = `${proxyUrl.replace(/\/+$/, '')}${frameSessionPagePath}?${new URLSearchParams({ origin: location.origin })}`;
  iframe.hidden = true;
  iframe.tabIndex = -1;
  iframe.title = 'Fan Polls session';
  iframe.setAttribute('aria-hidden', 'true');
  let challenge = '';
  let nextId = 0;
  const waiting = new Map<number, Waiting>();

  function send(
    message:
      | Omit<Extract<PageToSessionFrame, { type: 'call' }>, 'source' | 'id'>
      | Omit<Extract<PageToSessionFrame, { type: 'redeem' }>, 'source' | 'id'>,
  ): Promise<unknown> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new ProxyClientError(proxyUnreachable, 'The session frame did not answer.'));
      }, answerWaitMs);
      const done =
        <T>(settle: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          settle(value);
        };
      waiting.set(id, { resolve: done(resolve), reject: done(reject) });
      iframe.contentWindow?.postMessage({ ...message, source: sessionFrameSource.page, id }, proxyOrigin);
    });
  }

  const session: FrameSession = {
    call: (path, call = {}) =>
      send({
        type: 'call',
        path,
        method: call.method ?? 'GET',
        ...(call.body !== undefined && { body: call.body as { answerId: string } }),
      }),
    redeem: async (handoff) => {
      const body = await send({ type: 'redeem', handoff });
      return isRecord(body) && (body as Partial<SessionStatus>).signedIn === true;
    },
    challenge: () => challenge,
  };

  return new Promise((resolve) => {
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      // Only this frame, on the proxy's origin, with one of the contract's shapes.
      if (event.origin !== proxyOrigin || event.source !== iframe.contentWindow) return;
      const message = readSessionFrameToPage(event.data);
      if (message === undefined) return;
      if (message.type === 'challenge') {
        challenge = message.challenge;
        resolve(session);
        return;
      }
      const pending = waiting.get(message.id);
      if (pending === undefined) return;
      waiting.delete(message.id);
      if (message.ok) pending.resolve(message.body);
      else
        pending.reject(
          new ProxyClientError(
            message.code,
            `The partner proxy answered ${String(message.status ?? 'nothing')} (${message.code}).`,
            message,
          ),
        );
    });
    document.body.append(iframe);
  });
}
