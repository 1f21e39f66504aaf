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

describe('the handshake under a flood of messages', () => {
  /** Messages from another frame, as a flooding frame's `parent.postMessage` arrives. */
  function flood(): () => void {
    const timer = setInterval(() => {
      for (let n = 0; n < 20; n += 1) {
        window.dispatchEvent(
          new MessageEvent('message', {
            data: { source: bridgeSource.extension, requestId: 'forged', outcome: { ok: true } },
            origin: 'https://attacker.example',
            source: null,
          }),
        );
      }
    }, 10);
    return () => {
      clearInterval(timer);
    };
  }

  it('keeps waiting while other messages arrive, so a late answer still counts', async () => {
    let requestId: string | undefined;
    const capture = (event: MessageEvent): void => {
      const data = event.data as { source?: string; requestId?: string };
      if (data.source === bridgeSource.page) requestId = data.requestId;
    };
    window.addEventListener('message', capture);
    const stopFlood = flood();
    const asked = askExtension({ type: 'hello' }, 100, 5000);
    // The bridge's answer comes well after the first 100 ms, behind the flood.
    setTimeout(() => {
      const answer = {
        source: bridgeSource.extension,
        version: bridgeProtocolVersion,
        requestId,
        outcome: { ok: true, result: { type: 'hello', version: bridgeProtocolVersion } },
      };
      window.dispatchEvent(
        new MessageEvent('message', { data: answer, origin: location.origin, source: window }),
      );
    }, 350);
    await expect(asked).resolves.toEqual({ type: 'hello', version: bridgeProtocolVersion });
    stopFlood();
    window.removeEventListener('message', capture);
  });

  it('gives up after one quiet wait with no answer (no extension)', async () => {
    const started = performance.now();
    await expect(askExtension({ type: 'hello' }, 100, 5000)).rejects.toMatchObject({
      code: 'extension-failed',
    });
    expect(performance.now() - started).toBeLessThan(400);
  });

  it('gives up at the end of its patience even when the flood goes on', async () => {
    const stopFlood = flood();
    const started = performance.now();
    await expect(askExtension({ type: 'hello' }, 100, 300)).rejects.toMatchObject({
      code: 'extension-failed',
    });
    expect(performance.now() - started).toBeLessThan(1000);
    stopFlood();
  });
});
