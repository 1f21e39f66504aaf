import { isVoteRefusalReason } from '../../src/contracts/proxy-contract.ts';
import { ExtensionError, isExtensionErrorCode } from './extension-error.ts';
import type { MessageMap, MessageReply, MessageType } from './messages.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

export type SendMessage = (message: unknown) => Promise<unknown>;

/** Typed requests from the extension's pages to the background; a refused request throws its ExtensionError. */
export class BackgroundClient {
  constructor(private readonly send: SendMessage) {}

  async ask<K extends MessageType>(
    type: K,
    payload: MessageMap[K]['payload'],
  ): Promise<MessageMap[K]['result']> {
    let reply: unknown;
    try {
      reply = await this.send({ type, payload });
    } catch (cause) {
      throw new ExtensionError('unavailable', 'The extension did not answer; try again.', { cause });
    }
    if (!isRecord(reply)) throw new ExtensionError('unavailable', 'The extension did not answer; try again.');
    const typed = reply as MessageReply<K>;
    if (typed.ok) return typed.result;
    const code = isExtensionErrorCode(typed.error.code) ? typed.error.code : 'unavailable';
    const reason = typed.error.reason;
    throw new ExtensionError(code, typed.error.message, isVoteRefusalReason(reason) ? { reason } : {});
  }
}
