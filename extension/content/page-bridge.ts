import {
  bridgeProtocolVersion,
  bridgeSource,
  type BridgeResponseEnvelope,
  type BridgeResult,
} from '../../src/contracts/bridge-contract.ts';
import { isVoteRefusalReason } from '../../src/contracts/proxy-contract.ts';
import { parseBridgeEnvelope } from '../shared/bridge-shape.ts';
import type { SerializedError } from '../shared/extension-error.ts';
import type { ExtensionMessage, MessageReply } from '../shared/messages.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import type { UserActivationWatch } from './user-activation.ts';

export interface PageBridgeEnvironment {
  readonly window: Window;
  /** `runtime.sendMessage` to the background. */
  readonly send: (message: ExtensionMessage<'bridge'>) => Promise<unknown>;
  /** Whether the fan really clicked or typed in this frame since its last window, as the page cannot forge it. */
  readonly activation: UserActivationWatch;
}

/** At most this many requests from one frame in flight: a frame cannot flood the worker. Budgets are per tab. */
export const maxInFlight = 8;
/** Requests beyond those in flight wait here, in order; beyond this many they are dropped, unanswered. */
export const maxWaiting = 64;

/** Requests that open an extension window: the fan's fresh click in the page must come with them. */
const promptingRequests = new Set(['sign-in', 'vote']);

interface Waiting {
  readonly requestId: string;
  readonly origin: string;
  readonly message: ExtensionMessage<'bridge'>;
}

/**
 * The content script's side of the page bridge, on sites the fan connected. It acts only on messages from its own
 * window and origin with the exact request shape of bridge-contract.ts, forwards them to the background with whether
 * the fan just clicked (the background judges the frame by its tab's top-level site, so even `hello` goes there), and
 * answers to the page's own origin (never `'*'`) with a result rebuilt field by field. Every answer is the
 * background's: the content script says nothing of its own, not even "too many requests" (a flood waits, then is
 * dropped), and a request the background refuses for who sent it gets no answer at all, so a frame that is not heard
 * cannot tell the extension is there.
 */
export function startPageBridge(environment: PageBridgeEnvironment): () => void {
  const { window: page } = environment;
  let inFlight = 0;
  const waiting: Waiting[] = [];

  const answer = (
    requestId: string,
    targetOrigin: string,
    outcome: BridgeResponseEnvelope['outcome'],
  ): void => {
    const response: BridgeResponseEnvelope = {
      source: bridgeSource.extension,
      version: bridgeProtocolVersion,
      requestId,
      outcome,
    };
    page.postMessage(response, targetOrigin);
  };

  const forward = ({ requestId, origin, message }: Waiting): void => {
    inFlight += 1;
    environment
      .send(message)
      .then(
        (reply) => {
          if (isSenderRefusal(reply)) {
            // Not heard: what waits is not heard either.
            waiting.length = 0;
            return;
          }
          answer(requestId, origin, outcomeFrom(reply));
        },
        () => {
          answer(requestId, origin, { ok: false, error: unavailable });
        },
      )
      .finally(() => {
        inFlight -= 1;
        const next = waiting.shift();
        if (next) forward(next);
      });
  };

  const onMessage = (event: MessageEvent): void => {
    if (event.source !== page) return;
    const origin = page.location.origin;
    if (event.origin !== origin || origin === 'null') return;
    const envelope = parseBridgeEnvelope(event.data);
    if (!envelope) return;
    const { requestId, request } = envelope;
    // The fan's click counts for the request it came with, even when that request has to wait.
    const userActivated = promptingRequests.has(request.type) && environment.activation.take();
    const entry: Waiting = {
      requestId,
      origin,
      message: { type: 'bridge', payload: { request, userActivated } },
    };
    if (inFlight < maxInFlight) forward(entry);
    else if (waiting.length < maxWaiting) waiting.push(entry);
  };

  page.addEventListener('message', onMessage);
  return () => {
    page.removeEventListener('message', onMessage);
  };
}

const unavailable: SerializedError = { code: 'unavailable', message: 'The extension could not answer.' };

/** The background's `forbidden`: this frame is not heard (not the top-level site, or the site is not connected). */
function isSenderRefusal(reply: unknown): boolean {
  return (
    isRecord(reply) &&
    reply['ok'] === false &&
    isRecord(reply['error']) &&
    reply['error']['code'] === 'forbidden'
  );
}

/** The background's reply as the page may see it: only the fields of the contract, copied one by one. */
export function outcomeFrom(reply: unknown): BridgeResponseEnvelope['outcome'] {
  if (!isRecord(reply)) return { ok: false, error: unavailable };
  const typed = reply as MessageReply<'bridge'>;
  if (!typed.ok) {
    if (
      !isRecord(typed.error) ||
      typeof typed.error.code !== 'string' ||
      typeof typed.error.message !== 'string'
    ) {
      return { ok: false, error: unavailable };
    }
    const { code, message, reason } = typed.error;
    return {
      ok: false,
      error: {
        code,
        message: message.slice(0, 300),
        ...(isVoteRefusalReason(reason) ? { reason } : {}),
      },
    };
  }
  const result = safeResult(typed.result);
  return result ? { ok: true, result } : { ok: false, error: unavailable };
}

function safeResult(result: unknown): BridgeResult | undefined {
  if (!isRecord(result)) return undefined;
  switch (result['type']) {
    case 'hello':
      return { type: 'hello', version: bridgeProtocolVersion };
    case 'status':
    case 'sign-in': {
      const status = result['status'];
      if (!isRecord(status)) return undefined;
      return { type: result['type'], status: { signedIn: status['signedIn'] === true } };
    }
    case 'poll-view': {
      const view = result['view'];
      if (!isRecord(view) || typeof view['pollId'] !== 'string' || !Array.isArray(view['answers']))
        return undefined;
      const answers = (view['answers'] as unknown[]).flatMap((answer) => {
        if (!isRecord(answer) || typeof answer['id'] !== 'string') return [];
        const voteStatus = answer['voteStatus'];
        return [typeof voteStatus === 'string' ? { id: answer['id'], voteStatus } : { id: answer['id'] }];
      });
      return {
        type: 'poll-view',
        view: { pollId: view['pollId'], userVote: view['userVote'] === true, answers },
      };
    }
    case 'vote':
      return result['accepted'] === true && typeof result['answerId'] === 'string'
        ? { type: 'vote', accepted: true, answerId: result['answerId'] }
        : undefined;
    default:
      return undefined;
  }
}
