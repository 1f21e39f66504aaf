import type { SignInResultMessage } from '../../src/contracts/proxy-contract.ts';
import { hasOnlyKeys, isShortString } from './shape.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

/** The sign-in popup's result, when `data` has exactly the contract's shape. */
export function isSignInResultMessage(data: unknown): data is SignInResultMessage {
  if (!isRecord(data) || data.type !== 'fan-polls:sign-in') return false;
  if (data.ok === true) {
    return (
      hasOnlyKeys(data, ['type', 'ok', 'userId'], ['handoff']) &&
      isShortString(data.userId) &&
      (data.handoff === undefined ||
        (typeof data.handoff === 'string' && /^[\w-]{20,128}$/.test(data.handoff)))
    );
  }
  if (data.ok === false) {
    return (
      hasOnlyKeys(data, ['type', 'ok', 'error', 'message']) &&
      isShortString(data.error) &&
      typeof data.message === 'string' &&
      data.message.length <= 500
    );
  }
  return false;
}
