import type { Poll } from '../../src/platform/types.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

/**
 * The polls of a proxy answer (`{ data: Poll[] | Poll }`), by a lean shape check instead of the platform's full
 * tolerant parser (which would add 2.3 kB gzip to the widget): the proxy already parsed the platform's answer. A poll
 * without the shape a card reads is dropped (its card shows `not_found`); the card renders every string as text.
 */
export function readCardPolls(body: unknown): readonly Poll[] {
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
