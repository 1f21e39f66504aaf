import {
  adoptStyles,
  html,
  nothing,
  type CSSResultGroup,
  type PropertyValues,
  type TemplateResult,
} from 'lit';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { formatCount, formatCountdown, formatPercent, pluralCategory } from '../../src/polls/format.ts';
import { afterNextPaint } from '../base/after-next-paint.ts';
import { FanElement } from '../base/fan-element.ts';
import { ClockController } from '../controllers/clock-controller.ts';
import { LivePollController } from '../controllers/live-poll-controller.ts';
import { FanPollErrorEvent } from '../events/fan-poll-error-event.ts';
import type { FanPollErrorCode } from '../events/fan-poll-error-code.ts';
import { FanPollReadyEvent } from '../events/fan-poll-ready-event.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { en } from '../i18n/en.ts';
import type { CardStrings } from '../i18n/strings.ts';
import { pageStore } from '../store/page-store.ts';
import { viewPoll, type LivePollStore, type PollView } from '../store/poll-model.ts';
import { readProxyUrl, widgetConfig } from '../store/widget-config.ts';
import { cleanTracking } from '../../src/contracts/tracking.ts';
import type { VoteChannel } from '../voting/vote-channel.ts';
import { FanVoteController } from '../controllers/fan-vote-controller.ts';
import { fanAction, type FanAction } from '../voting/fan-action.ts';
import { renderFanActions } from './fan-actions.ts';
import { cardStyles } from './fan-poll.styles.ts';
import { cardDetails, type CardDetails } from './details-part.ts';
import { answerResult, closedAction, phaseBadge, phaseNote, showAll, tokensText } from './phase-details.ts';

/**
 * A live poll card: question, answers, phase and countdown, quorum, and the fan's vote. The shares show to every
 * visitor (`results="always"`, the default), or with the fan's vote and to everyone once the poll closes
 * (`after-vote`, `after-close`); disclosed results name the winner or a tie. Signed-in cards of a
 * page share one session with their proxy: a sign-in, sign-out or switch of account on one reaches all.
 *
 * @summary A live fan poll.
 * @customElement fan-poll
 * @attr poll-id - The poll to show.
 * @attr current - Instead of `poll-id`: show the current poll of the clubs in `partner-ids`, as the proxy picks it from its cached list of their polls (the open poll closing soonest, else the next to open, else the last one closed or disclosed within the proxy's `FAN_POLLS_CURRENT_POLL_RECENT_HOURS`), and switch by itself when that changes (a new poll opens, the one shown closes), announced to screen readers. With a `lang` of its own and the recommended snippet, the proxy draws it with that poll, as a card with a `poll-id`; otherwise, until the proxy names a poll, the card shows its content (a link) or its skeleton.
 * @attr partner-ids - With `current`: the clubs' partner ids (the platform's `partnerId`), one to ten uuids separated by spaces or commas.
 * @attr proxy - The partner proxy's URL (else the script tag's `data-proxy`).
 * @attr theme - `light` (default), `dark` or `auto`.
 * @attr transparent - No background of its own.
 * @attr eager - Load at once instead of when near the viewport.
 * @attr results - Who sees an open poll's shares: `always` (default: every visitor, live), `after-vote` or `after-close` (the fan who voted, and everyone once the poll closes). A fan who voted always sees them.
 * @attr lang - The language (English, French, Spanish, Portuguese, German, Italian); else the page's.
 * @attr sign-in - `popup` (default): the fan signs in in a pop-up window, and where the browser opens none (in-app browsers, WebViews) the card offers "Continue to sign in" instead. `redirect`: always that way, no pop-up: the page goes to the sign-in and comes back to the same address, the fan's pick kept; one more tap on Vote votes. Read when the card's voting starts.
 * @attr next-href - The club's next step for the fan (a match report, tickets), linked once the fan's vote is accepted and once the poll has closed, with the card's tracking parameters added. `https:` only (`http:` on loopback); anything else is ignored with a console warning.
 * @attr next-label - The words of the `next-href` link (default: "What’s next", in the card's language).
 * @attr get-tokens-href - Where a fan who holds none of the club's tokens gets them, linked when the platform refuses their vote for it (`https:` only, as `next-href`).
 * @attr verify-href - A closed or disclosed poll's record on its chain, "Check this result": a template whose `{address}` becomes the poll's `blockchainAddress`, URL-encoded (for example `https://explorer.example/address/{address}`; `https:` only, as `next-href`).
 * @attr referrer - Tracking parameter, carried into sign-in and every event (as are the four below).
 * @attr campaign - Tracking parameter.
 * @attr param1 - Tracking parameter.
 * @attr param2 - Tracking parameter.
 * @attr param3 - Tracking parameter.
 * @fires {FanPollReadyEvent} fan-poll-ready - The card shows its data for the first time. Detail: `pollId`, `tracking`, `phase` (`upcoming`, `open`, `closed`, `disclosed`, `cancelled` or `unknown`).
 * @fires {FanPollVoteEvent} fan-poll-vote - The fan asked to vote; the vote is on its way. Detail: `pollId`, `tracking`, `answerId`.
 * @fires {FanPollVotedEvent} fan-poll-voted - The platform took the vote. Detail: `pollId`, `tracking`, `answerId`, `voteStatus` (`pending`, `accepted`, `rejected` or another value; absent when unknown).
 * @fires {FanPollSignInEvent} fan-poll-sign-in - Sign-in started, succeeded or failed. Detail: `pollId`, `tracking`, `stage` (`started`, `signed-in` or `failed`), `via` (`extension`, `popup`, or `redirect` for a sign-in without a pop-up, whose `signed-in` or `failed` comes once the page is back).
 * @fires {FanPollCurrentChangedEvent} fan-poll-current-changed - A `current` card switched by itself to its clubs' new current poll. Detail: `pollId`, `tracking`, `previousPollId` (the poll shown before; `pollId` is the new one), `phase` (the new poll's).
 * @fires {FanPollNextEvent} fan-poll-next - The fan followed one of the partner's links. Detail: `pollId`, `tracking`, `link` (`next`, `get-tokens` or `verify`), `href` (as the card rendered it).
 * @fires {FanPollShareEvent} fan-poll-share - The fan shared the poll (the share action shows once they voted, and on closed or disclosed polls, with or without a vote). Detail: `pollId`, `tracking`, `url` (the poll's share link on the proxy, with the tracking parameters), `via` (`share-sheet`: the browser's share sheet; `clipboard`: the link was copied, and the card says so).
 * @fires {FanPollErrorEvent} fan-poll-error - Loading, sign-in or voting failed; the card shows it to the fan already. Detail: `pollId`, `tracking`, `code` (see the reference's error codes), `message` (English, for logs).
 * @csspart card - The card's box.
 * @csspart logo - The club's logo.
 * @csspart partner - The club's name.
 * @csspart phase - The phase badge and countdown.
 * @csspart question - The question.
 * @csspart answers - The group of answers.
 * @csspart answer - Each answer (also `answer-leading` for the winner of disclosed results).
 * @csspart outcome - What the phase means: results to come, the winner or a tie, a cancellation.
 * @csspart show-all - The button that shows every answer of a long poll.
 * @csspart stats - Votes and tokens.
 * @csspart quorum - Quorum progress and whether the result is binding.
 * @csspart information - The poll's information text.
 * @csspart actions - The fan's action and its status.
 * @csspart button - The action button.
 * @csspart status - A note under the button (how votes are confirmed, an error).
 * @csspart account - Who is signed in, with sign-out and switch account.
 * @csspart next - What follows the vote: the partner's links (the next step, getting tokens, checking the result) and the share action.
 * @csspart share - The share action's button.
 * @cssproperty [--fan-poll-background=#fff] - Card background (dark theme: `#151923`).
 * @cssproperty [--fan-poll-text=#14171f] - Text colour (dark: `#eef1f6`).
 * @cssproperty [--fan-poll-muted=#596070] - Secondary text colour (dark: `#a9b1c2`).
 * @cssproperty [--fan-poll-border=#dde1e8] - Border colour (dark: `#323a4a`).
 * @cssproperty [--fan-poll-track=#eef0f4] - Empty part of the bars (dark: `#262d3b`).
 * @cssproperty [--fan-poll-accent=#1d4ed8] - Bars, the open badge and the button (dark: `#8ab4ff`).
 * @cssproperty [--fan-poll-accent-text=#fff] - Text on the accent colour (dark: `#0b1020`).
 * @cssproperty [--fan-poll-leading=var(--fan-poll-accent)] - Border of the winning answer.
 * @cssproperty [--fan-poll-focus=#c2410c] - Focus ring (dark: `#fdba74`).
 * @cssproperty [--fan-poll-radius=12px] - Corner radius of the card, the answers, the button and the phase pill (unset: the button and the pill are fully rounded).
 * @cssproperty [--fan-poll-font=system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif] - Font family.
 * @cssproperty [--fan-poll-min-height=0] - Reserved height while loading (set it where the card sits: no layout shift).
 */
export class FanPoll extends FanElement {
  static override styles: CSSResultGroup = cardStyles;
  static override properties = {
    pollId: { attribute: 'poll-id' },
    proxy: {},
    theme: { reflect: true },
    transparent: { type: Boolean, reflect: true },
    eager: { type: Boolean },
    results: {},
    // HTMLElement's own `lang` stays (no accessor): Lit observes the attribute, `attributeChangedCallback` re-renders.
    // eslint-disable-next-line lit/no-native-attributes -- observed only, the native property is not shadowed
    lang: { noAccessor: true },
    store: { attribute: false },
    channel: { attribute: false },
    serverPoll: { attribute: false },
  };

  declare pollId: string;
  declare proxy: string | undefined;
  declare theme: 'light' | 'dark' | 'auto' | undefined;
  declare transparent: boolean;
  declare eager: boolean;
  declare results: ResultsSetting | undefined;
  /**
   * Advanced: where the card reads its poll, a `LivePollStore` from `widget/store/poll-model.ts` (for example
   * `createLivePollStore` over another source). Unset, the page's store reads through the proxy.
   */
  declare store: LivePollStore | undefined;
  /**
   * Advanced: how the fan signs in, reads their vote and votes, a `VoteChannel` (`widget/voting/vote-channel.ts`).
   * Unset, the card uses the extension when it answers, else the proxy. A card given a channel also shows the fan's
   * vote on polls that are no longer open.
   */
  declare channel: VoteChannel | undefined;
  /**
   * Advanced: the poll as the page's server read it. `fan-polls/ssr` renders the card with it and `fan-polls/hydrate`
   * gives it back in the browser, so that the card hydrates what the server drew; its own read takes over once it
   * answers.
   */
  declare serverPoll: Poll | undefined;
  /**
   * For the banner's page, not the element's API: the top-level page's address (its host loader's word) a sign-in
   * without a pop-up comes back to, so that the card in the frame sends the top-level page to the sign-in from the
   * fan's click. A card in a frame without it signs in by pop-up only.
   */
  declare signInPage: string | undefined;
  /** Text of the polite live region; set just before a re-render (phase changes, vote outcome). */
  #announcement = '';

  readonly #live = new LivePollController(this, () => ({
    store: this.store ?? pageStoreFor(this.proxyUrl),
    pollId: this.pollId,
    eager: this.eager,
  }));
  readonly #clock = new ClockController(this);
  /** The fan's voting for the current poll id (started for open polls, or a card given a channel). */
  readonly #voting = new FanVoteController(this, {
    announceVote: (answerId) => {
      const frame = this.#frame;
      const details = cardDetails.get();
      if (frame.kind !== 'poll' || !details) return;
      this.#announcement = details.votedText(frame.view, answerId, undefined, frame.strings);
      this.requestUpdate();
    },
    reportError: (code, error) => {
      this.#reportError(code, error);
    },
    refreshPoll: () => {
      this.#refreshPoll();
    },
  });
  /** What the next render shows, worked out in `willUpdate` (`render` only turns it into a template). */
  #frame: CardFrame = { kind: 'loading', strings: en };
  /** A render that threw (a bug): `updated` reports it. */
  #renderFailure: unknown;
  #readySent = false;
  #lastErrorState: unknown;
  #lastPhase: string | undefined;
  #warned = false;
  #expanded = false;
  /** The details chunk's styles are adopted beside the card's own once it arrived. */
  #detailStyles = false;

  constructor() {
    super();
    this.pollId = '';
    this.transparent = false;
    this.eager = false;
  }

  get tracking(): TrackingParameters {
    return cleanTracking((key) => this.getAttribute(key));
  }

  get proxyUrl(): string | undefined {
    return readProxyUrl(this.proxy) ?? widgetConfig.proxyUrl;
  }

  override attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    super.attributeChangedCallback(name, old, value);
    if (name === 'lang') this.requestUpdate('lang', old);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another poll or another channel: the fan's session and vote are found again.
    if (changed.has('pollId') || changed.has('channel')) this.#resetFan();
    if (changed.has('pollId')) this.#expanded = false;
    if (changed.has('pollId') || changed.has('store') || changed.has('proxy') || changed.has('eager'))
      this.#live.sync();
    try {
      this.#frame = this.#nextFrame();
    } catch (error) {
      this.#failed(error);
    }
  }

  protected override update(changed: PropertyValues<this>): void {
    try {
      super.update(changed);
    } catch (error) {
      this.#failed(error);
      super.update(changed);
    }
  }

  /** Never throw into the host page: a bug shows the error state (with a retry), `updated` tells the page. */
  #failed(error: unknown): void {
    this.#renderFailure = error;
    this.#frame = { kind: 'error', strings: en, code: undefined, details: cardDetails.get(this) };
  }

  protected override render(): TemplateResult {
    const frame = this.#frame;
    if (frame.kind === 'poll') return this.#renderPoll(frame);
    if (frame.kind === 'loading') return this.#renderLoading(frame.strings);
    return this.#renderError(frame);
  }

  protected override updated(): void {
    this.#warnIfMisconfigured();
    const details = cardDetails.get();
    if (details && !this.#detailStyles && this.shadowRoot) {
      this.#detailStyles = true;
      adoptStyles(this.shadowRoot, [cardStyles, details.detailStyles]);
    }
    if (this.#renderFailure !== undefined) {
      const failure = this.#renderFailure;
      this.#renderFailure = undefined;
      this.#reportError('render-failed', failure);
    }
    const state = this.#live.state;
    if (this.#frame.kind === 'poll' && !this.#readySent) {
      this.#readySent = true;
      this.dispatchEvent(new FanPollReadyEvent({ ...this.#detail(), phase: this.#frame.view.phase }));
    }
    if (state.status === 'error' && this.#lastErrorState !== state) {
      this.#lastErrorState = state;
      this.dispatchEvent(
        new FanPollErrorEvent({ ...this.#detail(), code: 'load-failed', message: state.error.message }),
      ); // A read refused by CORS looks like any network failure: the proxy says whether this page is the reason.
      const proxy = this.store ? undefined : this.proxyUrl;
      if (proxy)
        // Its own chunk: only a card whose read failed asks.
        void import('../delivery/refused-origin.ts').then(async ({ refusedOrigin }) => {
          const message = await refusedOrigin(proxy);
          if (message)
            this.dispatchEvent(
              new FanPollErrorEvent({ ...this.#detail(), code: 'origin-not-allowed', message }),
            );
        });
    }
  }

  /** Once per card, in the console (the words come with the details chunk): what the partner must fix. */
  #warnIfMisconfigured(): void {
    if (this.#warned || !this.isConnected || (this.pollId.trim() && (this.store || this.proxyUrl))) return;
    this.#warned = true;
    cardDetails.load().then(
      (details) => {
        details.warnMisconfigured(this);
      },
      () => undefined,
    );
  }

  #expand(): void {
    this.#expanded = true;
    this.requestUpdate();
    // Focus goes to the first answer that was hidden, so keyboard users carry on where the list grew.
    void this.updateComplete.then(() => {
      this.shadowRoot?.querySelectorAll('input')[4]?.focus();
    });
  }

  #refreshPoll(): void {
    (this.store ?? pageStoreFor(this.proxyUrl))?.refresh(this.pollId);
  }

  #reportError(code: FanPollErrorCode, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.dispatchEvent(new FanPollErrorEvent({ ...this.#detail(), code, message }));
  }

  /**
   * The card's effects before a render: the language and details chunks it needs, the clock, the phase announcement
   * and the fan's voting (started once the poll is open, or a host gave the card a channel).
   */
  #nextFrame(): CardFrame {
    const { strings, locale, pending } = resolveLanguage(this);
    const state = this.#live.state;
    // The server's poll stands in until the card's own read has one (as the store's last good poll does).
    const poll = pending
      ? undefined
      : ((state.status === 'loading' ? undefined : state.poll) ?? this.serverPoll);
    if (!poll) {
      this.#clock.ticking = false;
      return state.status === 'error' && !pending
        ? { kind: 'error', strings, code: state.error.code, details: cardDetails.get(this) }
        : { kind: 'loading', strings };
    }
    const view = viewPoll(poll, this.#clock.now());
    // Every phase paints from the element code; the details chunk is the voting's (started below), or the partner's links'.
    const details = cardDetails.get();
    // Only on a page: a server render (Lit SSR, never connected) draws the poll only, no timer, session or read.
    if (this.isConnected) {
      this.#clock.ticking =
        view.phase === 'open' || view.phase === 'upcoming' || view.disclosesInMs !== undefined;
      if ((view.phase === 'open' || this.channel) && !this.#voting.started) this.#startVotingAfterPaint();
      // The partner's links and the share action are in the details chunk: a card with links, or a closed or disclosed
      // poll (`includes('closed')`: both, in the fewest bytes), asks for it once painted; the chunk adds them.
      if (view.phase.includes('closed') || this.matches('[next-href],[verify-href]'))
        afterNextPaint(() => cardDetails.get(this));
    }
    this.#noticePhase(view, strings, locale);
    const action = fanAction(view, this.#voting.fan);
    // A long poll shows its first answers (and the fan's pick) until the fan asks for all (`collapsedAfter`).
    const collapsed = !this.#expanded && view.answers.length > 5;
    return { kind: 'poll', strings, locale, view, details, action, collapsed };
  }

  #renderPoll(frame: PollFrame): TemplateResult {
    const { view, action, strings, locale } = frame;
    const phase = view.phase;
    // An open poll's shares: to every visitor by default; with `after-vote`/`after-close`, only with the fan's own
    // vote before the close (docs/embedding.md says why a partner may want that). After the close, everyone sees
    // them (closed or disclosed). Upcoming, cancelled and unknown polls show none.
    const voted = action.kind === 'voted' || action.kind === 'rejected';
    const revealed =
      voted ||
      phase.includes('closed') ||
      (phase === 'open' && this.results !== 'after-vote' && this.results !== 'after-close');
    const inProgress = phase !== 'upcoming' && phase !== 'cancelled';
    return html`<article part="card" class="card" aria-label=${view.question} data-phase=${phase}>
      <header>
        ${view.logoUrl ? html`<img part="logo" src=${view.logoUrl} alt="" />` : nothing}
        <span part="partner">${view.partnerName}</span>
        <span part="phase" data-phase=${phase}>${phaseText(view, strings, locale)}</span>
      </header>
      ${this.#renderAnswers(frame, revealed)}
      ${
        frame.collapsed
          ? showAll(view.answers.length, strings, () => {
              this.#expand();
            })
          : nothing
      }
      ${phaseNote(view, strings, locale)}
      ${
        inProgress
          ? html`<p part="stats">
                ${strings.votes(formatCount(view.uniqueVotes, { locale }), pluralCategory(view.uniqueVotes, locale))}
                ${revealed ? `· ${tokensText(view, strings, locale)}` : nothing}
              </p>
              ${this.#renderQuorum(view, strings, locale)}`
          : nothing
      }
      ${view.information ? html`<p part="information">${view.information}</p>` : nothing}
      ${this.#renderAction(frame)} ${frame.details?.renderNextStep(this, view, action, strings)}
      <div class="visually-hidden" role="status" aria-live="polite">${this.#announcement}</div>
    </article>`;
  }

  /** Quorum and binding in plain words; the bar's legend sits beside it. */
  #renderQuorum(view: PollView, strings: CardStrings, locale: string): TemplateResult {
    const percent = (fraction: number): string => formatPercent(fraction * 100, { locale });
    const required = percent(view.quorum.required);
    return html`<div part="quorum">
      <span>
        ${view.quorum.reached ? strings.quorumReached(required) : strings.quorum(percent(view.quorum.current), required)}.
        ${view.isBound ? strings.binding : strings.notBinding}
      </span>
      <span class="legend">
        <progress max="1" value=${Math.min(1, view.quorum.progress)} aria-hidden="true"></progress>
        ${strings.quorumLegend}
      </span>
    </div>`;
  }

  #renderAnswers(frame: PollFrame, revealed: boolean): TemplateResult {
    const { view, action, strings, locale } = frame;
    const open = view.phase === 'open';
    const selectable = action.kind === 'vote' || action.kind === 'sign-in';
    const fanChoice = action.kind === 'voted' || action.kind === 'rejected' ? action.answerId : undefined;
    const chosen = fanChoice ?? view.fanVote?.answerId ?? this.#voting.selected;
    // Only disclosed results name a winner; before that no answer is set apart but the fan's own.
    const winning = (answer: PollView['answers'][number]): boolean =>
      view.phase === 'disclosed' && answer.isLeading;
    const row = (answer: PollView['answers'][number], control: unknown): TemplateResult => {
      const mine = fanChoice === answer.id;
      return html`<label
        part=${winning(answer) ? 'answer answer-leading' : 'answer'}
        ?data-leading=${winning(answer)}
        ?data-chosen=${mine}
        ?data-selectable=${open && selectable}
      >
        ${control}
        <span class="text">${answer.text}</span>
        ${revealed ? answerResult(answer, mine, strings, locale) : nothing}
      </label>`;
    };
    return html`<fieldset part="answers" ?data-collapsed=${frame.collapsed}>
      <legend part="question" class="question">${view.question}</legend>
      ${view.answers.map((answer) =>
        row(
          answer,
          // Only an open poll has radios; the other phases list the answers in the same group, read-only.
          open
            ? html`<input
                type="radio"
                name="answer"
                .value=${answer.id}
                .checked=${chosen === answer.id}
                ?disabled=${!selectable}
                @change=${() => {
                  this.#voting.select(answer.id);
                }}
              />`
            : nothing,
        ),
      )}
    </fieldset>`;
  }

  /** Closed and read-only polls here; the fan's actions (sign-in, vote, the vote's status) from the card's voting. */
  #renderAction(frame: PollFrame): TemplateResult | typeof nothing {
    const { action, details, strings, view } = frame;
    if (action.kind === 'none') return nothing;
    if (action.kind === 'closed') return closedAction(strings);
    return renderFanActions(this.#voting, { view, action, strings, details, hostChannel: !!this.channel });
  }

  #renderLoading(strings: CardStrings): TemplateResult {
    if (this.childElementCount > 0) return html`<slot></slot>`;
    return html`<div part="card" class="card" aria-busy="true">
      <span class="visually-hidden" role="status">${strings.loading}</span>
      <span class="skeleton short"></span><span class="skeleton title"></span>
      <span class="skeleton answer"></span><span class="skeleton answer"></span
      ><span class="skeleton answer"></span>
      <span class="skeleton short"></span>
    </div>`;
  }

  /** The read failed: what happened, and a retry only where one can work (from the details chunk). */
  #renderError(frame: CardFrame): TemplateResult {
    const details = frame.kind === 'error' || frame.kind === 'poll' ? frame.details : undefined;
    const code = frame.kind === 'error' ? frame.code : undefined;
    return (
      details?.renderError(code, frame.strings, () => {
        this.#live.retry();
      }) ?? this.#renderLoading(frame.strings)
    );
  }

  #noticePhase(view: PollView, strings: CardStrings, locale: string): void {
    if (this.#lastPhase !== undefined && this.#lastPhase !== view.phase) {
      this.#announcement = `${view.question}: ${phaseText(view, strings, locale).split(' · ')[0] ?? ''}`;
    }
    this.#lastPhase = view.phase;
  }

  #detail(): { pollId: string; tracking: TrackingParameters } {
    return { pollId: this.pollId, tracking: this.tracking };
  }

  /** The voting's chunks and the extension's handshake start once the card's first paint is on screen. */
  #startVotingAfterPaint(): void {
    const pollId = this.pollId;
    afterNextPaint(() => {
      if (this.pollId === pollId) this.#voting.start();
    });
  }

  #resetFan(): void {
    this.#voting.reset();
    this.#readySent = false;
    this.#lastPhase = undefined;
  }
}

/** Who sees an open poll's shares (`results`); anything else reads as `always`. */
export type ResultsSetting = 'always' | 'after-vote' | 'after-close';

/** What one render of the card shows, worked out before it (`willUpdate`). */
interface PollFrame {
  readonly kind: 'poll';
  readonly strings: CardStrings;
  readonly locale: string;
  readonly view: PollView;
  readonly details: CardDetails | undefined;
  readonly action: FanAction;
  /** A long poll shows its first answers until the fan asks for all. */
  readonly collapsed: boolean;
}

type CardFrame =
  | PollFrame
  | { readonly kind: 'loading'; readonly strings: CardStrings }
  | {
      readonly kind: 'error';
      readonly strings: CardStrings;
      /** The read's error code; none when the card itself failed. */
      readonly code: string | undefined;
      readonly details: CardDetails | undefined;
    };

function pageStoreFor(proxyUrl: string | undefined): LivePollStore | undefined {
  return proxyUrl ? pageStore(proxyUrl) : undefined;
}

/** The badge: an open poll's countdown, or the other phases' (`phase-details.ts`). */
function phaseText(view: PollView, strings: CardStrings, locale: string): string {
  return view.phase === 'open'
    ? `${strings.open} · ${strings.closesIn(formatCountdown(view.closesInMs ?? 0, { locale }))}`
    : phaseBadge(view, strings, locale);
}

declare global {
  interface HTMLElementTagNameMap {
    'fan-poll': FanPoll;
  }
}
