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
import { isRecord } from '../shared/typed-storage.ts';

export interface PageBridgeEnvironment {
  readonly window: Window;
  /** `runtime.sendMessage` to the background. */
  readonly send: (message: ExtensionMessage<'bridge'>) => Promise<unknown>;
  readonly now: () => number;
}

/** At most this many requests from one page in flight, and this many a minute: a page cannot flood the worker. */
export const maxInFlight = 8;
export const maxPerMinute = 120;

/**
 * The content script's side of the page bridge. It acts only on messages from its own window and origin with the
 * exact request shape of bridge-contract.ts, forwards the closed list to the background, and answers to the page's
 * own origin (never `'*'`) with a result rebuilt field by field, so nothing else ever reaches the page.
 */
export function startPageBridge(environment: PageBridgeEnvironment): () => void {
  const { window: page } = environment;
  let inFlight = 0;
  let recent: number[] = [];

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

  const onMessage = (event: MessageEvent): void => {
    if (event.source !== page) return;
    const origin = page.location.origin;
    if (event.origin !== origin || origin === 'null') return;
    const envelope = parseBridgeEnvelope(event.data);
    if (!envelope) return;
    const { requestId, request } = envelope;
    if (request.type === 'hello') {
      answer(requestId, origin, { ok: true, result: { type: 'hello', version: bridgeProtocolVersion } });
      return;
    }
    const now = environment.now();
    recent = recent.filter((at) => now - at < 60_000);
    if (inFlight >= maxInFlight || recent.length >= maxPerMinute) {
      answer(requestId, origin, {
        ok: false,
        error: { code: 'rate_limited', message: 'Too many requests.' },
      });
      return;
    }
    recent.push(now);
    inFlight += 1;
    environment
      .send({ type: 'bridge', payload: request })
      .then(
        (reply) => {
          answer(requestId, origin, outcomeFrom(reply));
        },
        () => {
          answer(requestId, origin, { ok: false, error: unavailable });
        },
      )
      .finally(() => {
        inFlight -= 1;
      });
  };

  page.addEventListener('message', onMessage);
  return () => {
    page.removeEventListener('message', onMessage);
  };
}

const unavailable: SerializedError = { code: 'unavailable', message: 'The extension could not answer.' };

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
    case 'sign-in':
    case 'connect': {
      const status = result['status'];
      if (!isRecord(status)) return undefined;
      return {
        type: result['type'],
        status: { signedIn: status['signedIn'] === true, siteApproved: status['siteApproved'] === true },
      };
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
      return result['accepted'] === true ? { type: 'vote', accepted: true } : undefined;
    default:
      return undefined;
  }
}
