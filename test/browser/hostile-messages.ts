// What a hostile page posts at the extension's page bridge, shared by the Chromium and the Firefox runs.
import type { Poll } from '../../src/platform/types.ts';

/** A request as a page sends it to the bridge. */
export function envelope(request: unknown, requestId = 'attack'): Record<string, unknown> {
  return { source: 'fan-polls-page', version: 2, requestId, request };
}

/**
 * Forged, malformed and out-of-list messages (attempts 1-14), each with the request id its answer would carry: the
 * bridge must answer none of them.
 */
export function ignoredMessages(
  poll: Poll,
  platformApiUrl: string,
): { message: unknown; requestId: string }[] {
  const answerId = poll.answers[0]!.id;
  const messages: unknown[] = [
    { ...envelope({ type: 'vote', pollId: poll.id, answerId }), version: 1 },
    envelope({ type: 'connect' }),
    { ...envelope({ type: 'vote', pollId: poll.id, answerId }), source: 'fan-polls-extension' },
    { ...envelope({ type: 'vote', pollId: poll.id, answerId }), extra: true },
    envelope({ type: 'vote', pollId: poll.id, answerId, token: true }),
    envelope({ type: 'get-token' }),
    envelope({ type: 'sign-out' }),
    envelope({ type: 'user-polls', userVoted: true }),
    envelope({ type: 'fetch', url: `${platformApiUrl}/user/1.0.0/user/me` }),
    envelope({ type: 'poll-view', pollId: `${poll.id}/../../user/me` }),
    envelope({ type: 'vote', pollId: 'x'.repeat(1_000_000), answerId }),
    envelope({ type: 'sign-in', tracking: { referrer: 'x'.repeat(500) } }),
    envelope({ type: 'status' }, 'not a valid id!'),
    JSON.stringify(envelope({ type: 'status' })),
  ];
  return messages.map((message) => ({
    message,
    requestId:
      typeof message === 'object' && message !== null && 'requestId' in message
        ? String(message.requestId)
        : 'attack',
  }));
}

/** An answer forged as if from the extension (attempt 15): the page hears only its own message. */
export const forgedAnswer = {
  source: 'fan-polls-extension',
  version: 2,
  requestId: 'forged',
  outcome: {
    ok: true,
    result: { type: 'vote', accepted: true, answerId: '00000000-0000-4000-8000-000000000000' },
  },
};

/** The bridge's answer as a page receives it. */
export type BridgeOutcome = { ok?: boolean; result?: unknown; error?: { code: string; message?: string } };

/**
 * Runs in the page (pass it to `page.evaluate` with `[message, requestId, timeoutMs]`): posts `message` as the page and
 * resolves with the extension's answer for `requestId`, or `{ timeout: true }`.
 */
export function postInPage([message, requestId, timeoutMs]: readonly [unknown, string, number]): Promise<
  BridgeOutcome | { timeout: true }
> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve({ timeout: true });
    }, timeoutMs);
    window.addEventListener(
      'message',
      (event: MessageEvent<{ source?: string; requestId?: string; outcome?: BridgeOutcome } | null>) => {
        if (
          event.data?.source === 'fan-polls-extension' &&
          event.data.requestId === requestId &&
          event.data.outcome
        ) {
          clearTimeout(timer);
          resolve(event.data.outcome);
        }
      },
    );
    window.postMessage(message, '*');
  });
}

/** Runs in the page: how many messages from the extension (or posing as it) the page has received so far. */
export function extensionMessagesInPage(): number {
  return (window as unknown as { seen: ({ source?: string } | null)[] }).seen.filter(
    (m) => m?.source === 'fan-polls-extension',
  ).length;
}
