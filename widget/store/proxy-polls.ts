import type { Poll } from '../../src/platform/types.ts';
import type { FetchPolls } from '../../src/polls/live-store.ts';
import { fetchPollsFromProxy } from '../../src/polls/proxy-source.ts';
import { isRecord } from '../messages/shape.ts';

/**
 * The live store's source in the first-paint script: `fetchPollsFromProxy` with a lean shape check instead of the
 * platform's full tolerant parser (which would add 2.3 kB gzip). The proxy already parsed the platform's answer; a
 * poll without the shape a card reads is dropped here (its card shows `not_found`), and the card renders every string
 * as text.
 */
export function proxyPolls(proxyUrl: string, fetchImpl: typeof fetch = fetch.bind(globalThis)): FetchPolls {
  return fetchPollsFromProxy(proxyUrl, readCardPolls, fetchImpl);
}

function readCardPolls(body: unknown): readonly Poll[] {
  const data = isRecord(body) ? body.data : undefined;
  return (Array.isArray(data) ? data : [data]).filter(isCardPoll);
}

/** Enough of a poll for a card: an id, answers with ids, statistics (the rest has safe defaults in the view). */
function isCardPoll(value: unknown): value is Poll {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    isRecord(value.statistics) &&
    Array.isArray(value.answers) &&
    value.answers.every(
      (answer) => isRecord(answer) && typeof answer.id === 'string' && isRecord(answer.statistics),
    )
  );
}
