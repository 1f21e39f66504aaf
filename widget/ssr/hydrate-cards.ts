import type { FanPoll } from '../fan-poll/fan-poll.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import { loadLanguage } from '../i18n/language.ts';
import { pollTimeline } from '../../src/polls/poll-phase.ts';
import { keepEarlyTaps, showGettingReady } from './early-taps.ts';
import { takeServerPoll } from './server-poll-data.ts';

/**
 * Readies the server-rendered cards in `root` (those with a declarative shadow root) to hydrate, before `<fan-poll>` is
 * defined: each gets back the poll it was drawn with, and the parts its first render reads are loaded (its language;
 * the details chunk for a poll that is not open, whose links and share action it draws), so that the browser's first
 * render is the server's and Lit hydrates it without drawing it again; meanwhile its buttons say they are getting
 * ready, and what the fan picked is kept (`early-taps.ts`). An open poll's card goes live without waiting for the
 * details chunk (its first render draws the same button in the same area either way, `fan-poll/fan-actions.ts`),
 * which is asked for at once, for the fan's tap. A `current` card the proxy drew with its clubs' current poll hydrates
 * as a card of that poll, then follows their current poll (`followDrawnCurrent`). Never rejects: a part that failed to
 * load leaves the card to render as any card does.
 */
export async function prepareServerCards(root: ParentNode): Promise<void> {
  const waits: Promise<unknown>[] = [];
  let readsDetails = false;
  const cards: FanPoll[] = [];
  const current: FanPoll[] = [];
  for (const card of root.querySelectorAll<FanPoll>('fan-poll')) {
    if (!card.shadowRoot || customElements.get('fan-poll')) continue;
    cards.push(card);
    showGettingReady(card.shadowRoot);
    const poll = takeServerPoll(card);
    // Before the upgrade own properties; Lit hands them to the element's first update.
    if (poll) card.serverPoll = poll;
    if (poll && card.matches('[current]:not([poll-id])')) {
      card.pollId = poll.id;
      current.push(card);
    }
    waits.push(loadLanguage(card.getAttribute('lang')));
    readsDetails ||= !poll || pollTimeline(poll, Date.now()).phase !== 'open';
  }
  if (cards.length > 0) {
    const details = cardDetails.load();
    if (readsDetails) waits.push(details);
    else details.catch(() => undefined);
  }
  await Promise.allSettled(waits);
  keepEarlyTaps(cards);
  for (const card of current) void followDrawnCurrent(card);
}

/**
 * A drawn `current` card has the poll id the proxy picked, so its element code does not follow its clubs' current poll
 * as it does for a card without one: the details chunk's follower starts here, once the card is live (after its
 * hydrating render, which then never meets the follower's live region), and switches it from there.
 */
async function followDrawnCurrent(card: FanPoll): Promise<void> {
  await customElements.whenDefined('fan-poll');
  await card.updateComplete;
  const details = await cardDetails.load().catch(() => undefined);
  details?.followCurrent(card);
}
