import type { BridgeRequest, BridgeResult, BridgeStatus } from '../../src/contracts/bridge-contract.ts';
import { bridgeRequest, isBridgeResponse } from '../messages/bridge-messages.ts';
import { extensionErrorCode } from './extension-error-code.ts';
import type { VoteChannel } from './vote-channel.ts';
import { WidgetError } from './widget-error.ts';

/** The background judges even the handshake (a frame that is not heard gets no answer), so allow a worker wake-up. */
const helloTimeoutMs = 1000;
/** Sign-in and vote confirmation wait for the fan, in an extension window. */
const fanTimeoutMs = 180_000;
const requestTimeoutMs = 15_000;
const unexpectedAnswer = 'Unexpected answer from the extension.';

/** One request over the page bridge; the answer must come from this window, this origin, with our request id. */
export function askExtension(request: BridgeRequest, timeoutMs: number): Promise<BridgeResult> {
  const requestId = crypto.randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      finish();
      reject(new WidgetError('extension-failed', 'The extension did not answer.'));
    }, timeoutMs);
    function onMessage(event: MessageEvent): void {
      if (
        event.source !== window ||
        event.origin !== location.origin ||
        !isBridgeResponse(event.data, requestId)
      )
        return;
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
    const result = await askExtension({ type: 'hello' }, helloTimeoutMs);
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
