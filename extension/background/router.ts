import { ExtensionError, serializeError } from '../shared/extension-error.ts';
import type { MessageMap, MessageReply, MessageType } from '../shared/messages.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import type { MessageSenderLike, SenderInfo, SenderKind } from './sender.ts';

/** One named handler: who may call it, how its payload is checked, and what it does. */
export interface Route<K extends MessageType> {
  readonly allow: SenderKind;
  /** Returns the checked payload; throws `invalid_request` when its shape is wrong. */
  readonly parse: (payload: unknown) => MessageMap[K]['payload'];
  readonly handle: (
    payload: MessageMap[K]['payload'],
    sender: SenderInfo,
  ) => Promise<MessageMap[K]['result']>;
}

export type Routes = { readonly [K in MessageType]: Route<K> };

/**
 * The background's one message router. Unknown types answer `undefined` (so that the async listener never claims a
 * message that is not ours); known types answer a `MessageReply`, never a thrown error.
 */
export function createRouter(
  routes: Routes,
  classify: (sender: MessageSenderLike) => SenderInfo,
): (message: unknown, sender: MessageSenderLike) => Promise<MessageReply> | undefined {
  return (message, rawSender) => {
    if (
      !isRecord(message) ||
      typeof message['type'] !== 'string' ||
      !Object.hasOwn(routes, message['type'])
    ) {
      return undefined;
    }
    const type = message['type'] as MessageType;
    return dispatch(routes[type] as unknown as Route<MessageType>, message['payload'], classify(rawSender));
  };
}

async function dispatch(
  route: Route<MessageType>,
  rawPayload: unknown,
  sender: SenderInfo,
): Promise<MessageReply> {
  try {
    if (sender.kind !== route.allow)
      throw new ExtensionError('forbidden', 'This sender may not ask for that.');
    return { ok: true, result: await route.handle(route.parse(rawPayload), sender) };
  } catch (error) {
    return { ok: false, error: serializeError(error) };
  }
}

export function invalidRequest(): never {
  throw new ExtensionError('invalid_request', 'The message does not have the expected shape.');
}

/** For messages with no payload. */
export function noPayload(payload: unknown): undefined {
  return payload === undefined ? undefined : invalidRequest();
}
