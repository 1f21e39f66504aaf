import {
  bridgeSource,
  type BridgeRequest,
  type BridgeResult,
  type BridgeStatus,
} from '../../src/contracts/bridge-contract.ts';
import { bridgeRequest, isBridgeResponse } from '../messages/bridge-messages.ts';
import { extensionErrorCode } from './extension-error-code.ts';
import type { VoteChannel } from './vote-channel.ts';
import { WidgetError } from './widget-error.ts';

/** The background judges even the handshake (a frame that is not heard gets no answer), so allow a worker wake-up. */
const helloTimeoutMs = 1000;
/**
 * While other messages keep arriving (a frame flooding the page delays the bridge's answer behind them), the
 * handshake waits another `helloTimeoutMs`, up to this long: only a quiet wait with no answer means no extension.
 */
const helloPatienceMs = 20_000;
/** This many messages of any kind in one wait make it a busy one (a page's own few messages do not). */
const floodMessages = 50;
/** Sign-in and vote confirmation wait for the fan, in an extension window. */
const fanTimeoutMs = 180_000;
const requestTimeoutMs = 15_000;
const unexpectedAnswer = 'Unexpected answer from the extension.';

/**
 * One request over the page bridge; the answer must come from this window, this origin, with our request id. It
 * gives up after `timeoutMs`, or, with `patienceMs` longer, after the first quiet `timeoutMs` (no other bridge
 * message, fewer than `floodMessages` of any kind), at most `patienceMs`: a flood delays the answer, it does not
 * mean there is none.
 */
export function askExtension(
  request: BridgeRequest,
  timeoutMs: number,
  patienceMs = timeoutMs,
): Promise<BridgeResult> {
  const requestId = crypto.randomUUID();
  const startedAt = performance.now();
  /** Messages seen in the current wait: bridge traffic, or a flood of anything, makes it a busy one. */
  let bridgeTraffic = false;
  let seen = 0;
  const busy = (): boolean => bridgeTraffic || seen >= floodMessages;
  return new Promise((resolve, reject) => {
    let timer = setTimeout(expire, timeoutMs);
    function expire(): void {
      if (busy() && performance.now() - startedAt < patienceMs) {
        bridgeTraffic = false;
        seen = 0;
        timer = setTimeout(expire, timeoutMs);
        return;
      }
      finish();
      reject(new WidgetError('extension-failed', 'The extension did not answer.'));
    }
    function onMessage(event: MessageEvent): void {
      if (
        event.source !== window ||
        event.origin !== location.origin ||
        !isBridgeResponse(event.data, requestId)
      ) {
        // Our own request does not count as traffic.
        const data = event.data as { source?: unknown; requestId?: unknown } | null;
        if (data?.requestId === requestId) return;
        seen += 1;
        if (data?.source === bridgeSource.extension || data?.source === bridgeSource.page)
          bridgeTraffic = true;
        return;
      }
      finish();
      const outcome = event.data.outcome;
      if (outcome.ok) resolve(outcome.result);
      else
        reject(
          new WidgetError(
            extensionErrorCode(outcome.error.code, outcome.error.reason),
            outcome.error.message,
          ),
        );
    }
    function finish(): void {
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
    }
    window.addEventListener('message', onMessage);
    window.postMessage(bridgeRequest(requestId, request), location.origin);
  });
}

/** Resolves with the extension's channel when it answers the `hello` handshake, else undefined. */
export async function detectExtension(): Promise<VoteChannel | undefined> {
  try {
    const result = await askExtension({ type: 'hello' }, helloTimeoutMs, helloPatienceMs);
    return result.type === 'hello' ? extensionChannel() : undefined;
  } catch {
    return undefined;
  }
}

function extensionChannel(): VoteChannel {
  async function status(): Promise<BridgeStatus> {
    const result = await askExtension({ type: 'status' }, requestTimeoutMs);
    if (result.type !== 'status') throw new WidgetError('extension-failed', unexpectedAnswer);
    return result.status;
  }
  return {
    via: 'extension',
    async isSignedIn() {
      return (await status()).signedIn;
    },
    async signIn(tracking) {
      const result = await askExtension({ type: 'sign-in', tracking }, fanTimeoutMs);
      return result.type === 'sign-in' && result.status.signedIn;
    },
    async fanView(pollId) {
      const result = await askExtension({ type: 'poll-view', pollId }, requestTimeoutMs);
      if (result.type !== 'poll-view') throw new WidgetError('extension-failed', unexpectedAnswer);
      return { userVote: result.view.userVote, answers: result.view.answers };
    },
    // Sent straight from the fan's click: the extension opens its confirmation window only on a fresh click.
    async vote(pollId, answerId) {
      const result = await askExtension({ type: 'vote', pollId, answerId }, fanTimeoutMs);
      if (result.type !== 'vote') throw new WidgetError('vote-failed', unexpectedAnswer);
      return result.answerId;
    },
  };
}
