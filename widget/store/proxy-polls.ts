import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { errorFromFetchFailure } from '../../src/platform/errors.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { FetchPolls } from '../../src/polls/live-store.ts';
import { requestableIds } from '../../src/polls/poll-ids.ts';
import { errorFromProxyAnswer } from '../../src/polls/proxy-source.ts';
import { isRecord } from '../messages/shape.ts';

const context = 'Reading polls from the proxy';

/**
 * The live store's source in the first-paint script: `src/polls/proxy-source.ts`'s `fetchPollsFromProxy` (same
 * request, ids, errors and `Retry-After`) without the platform's full tolerant parser, which would add 2.3 kB gzip.
 * The proxy already parsed the platform's answer; a poll without the shape a card reads is dropped here (its card
 * shows `not_found`), and the card renders every string as text.
 */
export function proxyPolls(proxyUrl: string, fetchImpl: typeof fetch = fetch.bind(globalThis)): FetchPolls {
  const base = proxyUrl.replace(/\/+$/, '');
  return async (ids) => {
    const wanted = requestableIds(ids);
    if (wanted.length === 0) return [];
    // `limit`: a list answer is paged, and the default page could drop some of the ids.
    const query = new URLSearchParams([
      ...wanted.map((id) => ['ids[]', id]),
      ['limit', String(wanted.length)],
    ]);
    let response: Response;
    let body: unknown;
    try {
      response = await fetchImpl(`${base}${proxyRoutes.polls}?${query}`, {
        headers: { Accept: 'application/json' },
        credentials: 'omit',
        signal: AbortSignal.timeout(10_000),
      });
      body = await response.json().catch(() => undefined);
    } catch (error) {
      throw errorFromFetchFailure(error, context);
    }
    if (!response.ok) throw errorFromProxyAnswer(response, body, Date.now());
    const data = isRecord(body) ? body.data : undefined;
    return (Array.isArray(data) ? data : [data]).filter(isCardPoll);
  };
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
