/**
 * A `current` card's poll: which poll is its club's current one, asked of the proxy (`currentPollPath`, answered from
 * the proxy's cached list), and the switch when that changes. A chunk of its own, imported by a card with `current`
 * only: no other card's first paint carries it.
 */
import type { ReactiveController } from 'lit';
import { currentPollUrl, partnerIdsOf } from '../../src/contracts/current-poll-contract.ts';
import { proxyClient } from '../../src/contracts/proxy-client.ts';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { pollTimeline } from '../../src/polls/poll-phase.ts';
import { FanPollCurrentChangedEvent } from '../events/fan-poll-current-changed-event.ts';
import { detailWords } from '../i18n/detail-words.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { readCardPolls } from '../store/card-polls.ts';

/** What the follower needs of its card (`FanPoll`). */
export interface CurrentCard extends HTMLElement {
  pollId: string;
  serverPoll: Poll | undefined;
  readonly proxyUrl: string | undefined;
  readonly tracking: TrackingParameters;
  readonly updateComplete: Promise<boolean>;
  addController(controller: ReactiveController): void;
  requestUpdate(): void;
}

/**
 * How often a card asks again while nothing it shows changes phase: a new poll may open meanwhile. The proxy answers
 * from its cached list, so a crowd of cards costs the platform one list read per freshness window at most.
 */
const currentPollPaceMs = 30_000;

/** The questions in flight, by proxy and path: the page's cards of the same clubs share one. */
const inFlight = new Map<string, Promise<unknown>>();

function askCurrent(proxy: string, path: string): Promise<unknown> {
  const key = `${proxy} ${path}`;
  let answer = inFlight.get(key);
  if (!answer) {
    answer = proxyClient(proxy)
      .call(path, { credentials: 'omit' })
      .finally(() => {
        inFlight.delete(key);
      });
    inFlight.set(key, answer);
  }
  return answer;
}

/** Starts following the card's current poll (once per card): the card shows it, and switches when it changes. */
export function followCurrent(card: CurrentCard): void {
  card.addController(new CurrentPollFollower(card));
}

class CurrentPollFollower implements ReactiveController {
  readonly #card: CurrentCard;
  /** The poll the proxy last named, and its phase then: a phase change by its dates means asking again. */
  #named: { readonly poll: Poll; phase: string } | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #asking = false;
  #warned = false;
  /** The polite live region that says the card switched (beside the card's own render, never inside it). */
  #region: HTMLElement | undefined;

  constructor(card: CurrentCard) {
    this.#card = card;
  }

  hostConnected(): void {
    const root = this.#card.shadowRoot;
    if (!this.#region && root) {
      this.#region = document.createElement('div');
      this.#region.className = 'visually-hidden';
      this.#region.setAttribute('role', 'status');
      this.#region.setAttribute('aria-live', 'polite');
      // Before the card's render (Lit's content follows its first marker): no render removes it.
      root.prepend(this.#region);
    }
    this.#timer ??= setInterval(() => {
      if (document.visibilityState !== 'hidden') this.#ask();
    }, currentPollPaceMs);
    this.#ask();
  }

  hostDisconnected(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Before each render (a card with a countdown renders every second): the named poll opened or closed meanwhile, so
   * the proxy is asked again. A poll that ended is taken down at once, before its ended state is ever painted, while
   * the proxy says what follows it: its new elements then never move from where the old ones were (a layout shift).
   */
  hostUpdate(): void {
    const named = this.#named;
    if (!named) return;
    const phase = pollTimeline(named.poll, Date.now()).phase;
    if (phase === named.phase) return;
    named.phase = phase;
    const card = this.#card;
    if (phase !== 'upcoming' && phase !== 'open' && card.pollId === named.poll.id)
      // After this render, before the page paints it.
      queueMicrotask(() => {
        card.serverPoll = undefined;
        card.pollId = '';
      });
    this.#ask();
  }

  #ask(): void {
    const card = this.#card;
    const partnerIds = partnerIdsOf(card.getAttribute('partner-ids'));
    const proxy = card.proxyUrl;
    if (!partnerIds || !proxy) {
      if (!this.#warned)
        console.warn(
          'Fan Polls: <fan-poll current> needs partner-ids="<uuid> …" (up to ten) and a proxy.',
          card,
        );
      this.#warned = true;
      return;
    }
    if (this.#asking) return;
    this.#asking = true;
    askCurrent(proxy, currentPollUrl(partnerIds))
      .then(
        // No current poll (none open, coming or ended recently): the card keeps the one it named last, if any.
        (body) => this.#show(readCardPolls(body)[0] ?? this.#named?.poll),
        (error: unknown) => {
          // The card shows the poll it named last, and the next pace asks again.
          console.warn('Fan Polls: the current poll could not be read.', error);
          if (this.#named) return this.#show(this.#named.poll);
        },
      )
      .finally(() => {
        this.#asking = false;
      });
  }

  async #show(poll: Poll | undefined): Promise<void> {
    const card = this.#card;
    if (!poll || !card.isConnected) return;
    // The poll it showed before: the one it last named, or the one it was drawn with (`ssr/hydrate-cards.ts`).
    const previous = this.#named?.poll.id ?? (card.pollId || undefined);
    this.#named = { poll, phase: pollTimeline(poll, Date.now()).phase };
    if (card.pollId.toLowerCase() === poll.id.toLowerCase()) return;
    // A new poll is drawn fresh (the one before is taken down in one render, the new one drawn in the next): no
    // element of the card moves from where it was, and the page's reserved height holds the card.
    card.serverPoll = undefined;
    card.pollId = poll.id;
    await card.updateComplete;
    card.serverPoll = poll;
    if (previous === undefined || previous.toLowerCase() === poll.id.toLowerCase()) return;
    if (this.#region)
      this.#region.textContent = detailWords(resolveLanguage(card).strings).nowShowing(poll.question);
    card.dispatchEvent(
      new FanPollCurrentChangedEvent({
        pollId: poll.id,
        previousPollId: previous,
        tracking: card.tracking,
        phase: this.#named.phase,
      }),
    );
  }
}
