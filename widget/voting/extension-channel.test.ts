import { afterEach, describe, expect, it } from 'vitest';
import { bridgeProtocolVersion, bridgeSource } from '../../src/contracts/bridge-contract.ts';
import { askExtension } from './extension-channel.ts';

let stop: (() => void) | undefined;

/** A stand-in for the content script: answers every page request with `error`. */
function extensionAnswering(error: Record<string, unknown>): void {
  const onMessage = (event: MessageEvent): void => {
    const data = event.data as { source?: string; requestId?: string };
    if (data.source !== bridgeSource.page) return;
    // As the content script's `window.postMessage` arrives (happy-dom's own gives another `source` object).
    const answer = {
      source: bridgeSource.extension,
      version: bridgeProtocolVersion,
      requestId: data.requestId,
      outcome: { ok: false, error },
    };
    window.dispatchEvent(
      new MessageEvent('message', { data: answer, origin: location.origin, source: window }),
    );
  };
  window.addEventListener('message', onMessage);
  stop = () => {
    window.removeEventListener('message', onMessage);
  };
}

afterEach(() => {
  stop?.();
});

describe('extension channel errors', () => {
  it.each([
    [{ code: 'refused', reason: 'not_holder' }, 'not-holder'],
    [{ code: 'refused', reason: 'already_voted' }, 'already-voted'],
    [{ code: 'refused', reason: 'poll_not_open' }, 'poll-closed'],
    [{ code: 'refused', reason: 'unknown_answer' }, 'vote-refused'],
    [{ code: 'refused', reason: 'unknown_poll' }, 'vote-refused'],
    [{ code: 'refused', reason: '<img src=x>' }, 'vote-refused'],
    [{ code: 'refused' }, 'vote-refused'],
    [{ code: 'signed_out' }, 'sign-in-required'],
    [{ code: 'invalid_grant' }, 'sign-in-required'],
    [{ code: 'sign_in_failed' }, 'sign-in-failed'],
    [{ code: 'unavailable' }, 'vote-failed'],
    // Codes are matched exactly: a word inside a code means nothing.
    [{ code: 'not_holder_closed_token' }, 'vote-failed'],
  ])('maps %j to %s', async (error, expected) => {
    extensionAnswering({ message: 'No', ...error });
    await expect(askExtension({ type: 'vote', pollId: 'p1', answerId: 'a1' }, 1000)).rejects.toMatchObject({
      code: expected,
    });
  });
});
