import type { Poll } from '../../src/platform/types.ts';
import { readCardPolls } from '../store/card-polls.ts';

/** Marks the data block a server-rendered card carries in its light DOM: the poll it was rendered with. */
export const serverPollAttribute = 'data-fan-poll-server-poll';

/**
 * The poll as a JSON data block (`<script type="application/json">`, never run, not subject to a script CSP), written
 * into the card's light DOM by the server render. `<`, U+2028 and U+2029 are escaped, so that no string of the poll
 * can close the block or start markup.
 */
export function serverPollBlock(poll: Poll): string {
  const json = JSON.stringify(poll).replace(/[<\u2028\u2029]/g, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `<script type="application/json" ${serverPollAttribute}>${json}</script>`;
}

/**
 * The poll a server-rendered card carries, taken out of its light DOM (so that nothing else reads it as content), and
 * checked as a proxy answer is; undefined when there is none or it is not a poll.
 */
export function takeServerPoll(card: Element): Poll | undefined {
  const block = card.querySelector(`:scope > script[${serverPollAttribute}]`);
  if (!block) return undefined;
  block.remove();
  try {
    return readCardPolls({ data: JSON.parse(block.textContent) as unknown })[0];
  } catch {
    return undefined;
  }
}
