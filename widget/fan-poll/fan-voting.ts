/**
 * The voting of `<fan-poll>`, started when its poll is open (or a host gave it a channel): finds how the fan votes
 * (extension, else the proxy's sign-in popup), signs in, votes once, and follows the vote's `voteStatus`. It keeps the
 * fan's state itself and asks the card to render when it changes; the card reaches it only through `FanVoting`.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { FanPollSignInEvent } from '../events/fan-poll-sign-in-event.ts';
import { FanPollVoteEvent } from '../events/fan-poll-vote-event.ts';
import { FanPollVotedEvent } from '../events/fan-poll-voted-event.ts';
import { enVoting } from '../i18n/en-voting.ts';
import type { CardStrings, VotingStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';
import { chooseVoteChannel, proxyVoteChannel } from '../voting/choose-channel.ts';
import type { FanPollView, VoteChannel } from '../voting/vote-channel.ts';
import { WidgetError } from '../voting/widget-error.ts';
import type { FanSession, PageSession } from '../session/page-session.ts';
import { cardDetails } from './details-part.ts';
import type { ActionErrorKey } from '../i18n/detail-words.ts';
import type { FanAction, FanState } from './fan-action.ts';
import type { VotingCard, VotingHooks } from './voting-host.ts';

/** The card's words plus the voting's: a language chunk carries both, English's voting words are here. */
function withVoting(strings: CardStrings): CardStrings & VotingStrings {
  return { ...enVoting, ...strings };
}

/** Re-reads of the fan's vote while the platform confirms it: after 2, 4, 8, 16 s. */
const voteStatusPollsMs = [2000, 4000, 8000, 16_000];

export const unknownFan: FanState = {
  session: 'unknown',
  voting: false,
  notHolder: false,
  pollClosed: false,
};

export interface FanVoting {
  /** The fan's session and vote. */
  readonly fan: FanState;
  /** The answer the fan picked. */
  readonly selected: string | undefined;
  select(answerId: string): void;
  /** Finds how to vote and whether the fan is signed in (and voted); failures leave the card in "sign in". */
  loadFan(): void;
  /** The fan's action area for an open poll or a vote already cast. */
  renderAction(view: PollView, action: FanAction, strings: CardStrings): TemplateResult;
}

/** The voting of one card for one poll: a new poll id gets a new one, so late answers never cross polls. */
export function createVoting(host: VotingCard, hooks: VotingHooks): FanVoting {
  const pollId = host.pollId;
  const state: { fan: FanState; selected: string | undefined; voteError: ActionErrorKey | undefined } = {
    fan: unknownFan,
    selected: undefined,
    voteError: undefined,
  };
  /** Every change of the fan's state renders the card (batched by Lit into one update). */
  const change = (patch: Partial<typeof state>): void => {
    Object.assign(state, patch);
    host.requestUpdate();
  };
  let resolvedChannel: VoteChannel | undefined;
  /** The page's session with the proxy, when the card votes through it (not the extension, not a host's channel). */
  let session: PageSession | undefined;
  let signedInUser: string | undefined;
  // One action at a time: a second (or double) click while signing in or voting does nothing.
  let busy = false;
  const current = (): boolean => host.pollId === pollId && host.isConnected;
  const detail = () => ({ pollId, tracking: host.tracking });
  const channelNow = (): VoteChannel | undefined =>
    host.channel ?? resolvedChannel ?? proxyVoteChannel(host.proxyUrl);

  async function readFanVote(channel: VoteChannel): Promise<void> {
    try {
      const view: FanPollView = await channel.fanView(pollId);
      if (!current()) return;
      const answer = view.answers.find((each) => each.voteStatus !== undefined);
      if (answer)
        change({ fan: { ...state.fan, vote: { answerId: answer.id, voteStatus: answer.voteStatus } } });
    } catch (error) {
      if (current() && error instanceof WidgetError && error.code === 'sign-in-required') {
        change({ fan: { ...state.fan, session: 'signed-out' } });
        // The proxy's session ended (expired, or signed out elsewhere): every card of the page hears it.
        void session?.check();
      }
    }
  }

  /** Re-reads the fan's vote until the platform gives it a final status (never re-sends the vote). */
  async function followVoteStatus(channel: VoteChannel): Promise<void> {
    for (const delay of voteStatusPollsMs) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (!current()) return;
      await readFanVote(channel);
      const status = state.fan.vote?.voteStatus;
      if (status !== undefined && status !== 'pending') return;
    }
  }

  function signIn(channel: VoteChannel): void {
    busy = true;
    change({ voteError: undefined });
    change({ fan: { ...state.fan, session: 'signing-in' } });
    const event = (stage: 'started' | 'signed-in' | 'failed'): FanPollSignInEvent =>
      new FanPollSignInEvent({ ...detail(), stage, via: channel.via });
    host.dispatchEvent(event('started'));
    channel
      .signIn(host.tracking)
      .then(async (signedIn) => {
        // Through the proxy, the page's session tells every card (this one too) who signed in, and they read the
        // fan's vote; a cancelled switch of account leaves the fan signed in as before.
        const now = session ? (await session.changed()).state : undefined;
        change({ fan: { ...state.fan, session: now ?? (signedIn ? 'signed-in' : 'signed-out') } });
        host.dispatchEvent(event(signedIn ? 'signed-in' : 'failed'));
        if (!signedIn) change({ voteError: 'signInCancelled' });
        else if (!session) await readFanVote(channel);
      })
      .catch((error: unknown) => {
        change({
          fan: { ...state.fan, session: session?.current.state === 'signed-in' ? 'signed-in' : 'signed-out' },
        });
        change({
          voteError:
            error instanceof WidgetError && error.code === 'popup-blocked' ? 'popupBlocked' : 'signInFailed',
        });
        host.dispatchEvent(event('failed'));
        hooks.reportError(error instanceof WidgetError ? error.code : 'sign-in-failed', error);
      })
      .finally(() => {
        busy = false;
      });
  }

  function vote(channel: VoteChannel): void {
    const answerId = state.selected;
    if (answerId === undefined) {
      change({ voteError: 'chooseAnswer' });
      host.shadowRoot?.querySelector('input')?.focus();
      return;
    }
    busy = true;
    // The button goes once the vote is in: focus then moves to the card's "You voted for" line, not the page.
    const hadFocus = !!host.shadowRoot?.activeElement;
    change({ voteError: undefined });
    change({ fan: { ...state.fan, voting: true } });
    host.dispatchEvent(new FanPollVoteEvent({ ...detail(), answerId }));
    channel
      .vote(pollId, answerId)
      .then(async (recorded) => {
        // The answer the platform recorded (the extension's confirmed one), not necessarily the card's pick.
        change({ fan: { ...state.fan, voting: false, vote: { answerId: recorded } }, selected: recorded });
        const details = cardDetails.get();
        if (details)
          hooks.announce(details.votedText(hooks.currentView(), recorded, undefined, hooks.cardStrings()));
        host.dispatchEvent(new FanPollVotedEvent({ ...detail(), answerId: recorded }));
        hooks.refreshPoll();
        if (hadFocus) void keepFocus();
        // The vote is in: the status reads below must not let the fan vote again, even if they fail.
        busy = false;
        await readFanVote(channel);
        if (state.fan.vote?.voteStatus === undefined || state.fan.vote.voteStatus === 'pending')
          await followVoteStatus(channel);
      })
      .catch(async (error: unknown) => {
        const code = error instanceof WidgetError ? error.code : 'vote-failed';
        change({
          fan: {
            ...state.fan,
            voting: false,
            notHolder: code === 'not-holder',
            pollClosed: code === 'poll-closed',
            session: code === 'sign-in-required' ? 'signed-out' : state.fan.session,
          },
        });
        hooks.reportError(code, error);
        if (code === 'poll-closed') hooks.refreshPoll();
        else if (code === 'vote-cancelled') change({ voteError: 'voteCancelled' });
        else if (code === 'already-voted' || code === 'vote-refused') {
          change({ voteError: code === 'already-voted' ? 'alreadyVoted' : 'voteRefused' });
          // Never a second vote: the fan's own view shows the vote the platform already has, if any.
          await readFanVote(channel);
        } else if (code !== 'not-holder') change({ voteError: 'errorVote' });
      })
      .finally(() => {
        busy = false;
      });
  }

  async function keepFocus(): Promise<void> {
    await host.updateComplete;
    host.shadowRoot?.querySelector<HTMLElement>('.outcome')?.focus();
  }

  /**
   * Every card voting through the proxy follows the page's session (which calls this when it subscribes and at each
   * change): who is signed in, and their vote here.
   */
  function followSession(next: FanSession): void {
    if (!current() || next.state === 'unknown') return;
    const user = next.state === 'signed-in' ? next.userId : undefined;
    // The first fan the session names may be the one this card just signed in (a sign-in can end before the
    // session's first read): what the card knows of them stays. Another fan, or none: it goes.
    const sameFan = user !== undefined && (signedInUser === undefined || user === signedInUser);
    signedInUser = user;
    change({
      fan: sameFan ? { ...state.fan, session: next.state } : { ...unknownFan, session: next.state },
      voteError: undefined,
    });
    const channel = channelNow();
    if (user !== undefined && !state.fan.vote && channel) void readFanVote(channel);
  }

  const accountActions = {
    /** A new sign-in in the proxy's popup; the proxy ends the previous fan's session once it succeeds. */
    switchAccount(): void {
      const channel = channelNow();
      if (!busy && channel) signIn(channel);
    },
    signOutFailed(error: unknown): void {
      change({ voteError: 'signOutFailed' });
      hooks.reportError('sign-out-failed', error);
    },
  };

  function act(action: FanAction): void {
    if (busy || state.fan.vote) return;
    const channel = channelNow();
    if (!channel) return;
    if (action.kind === 'sign-in') signIn(channel);
    else if (action.kind === 'vote') vote(channel);
  }

  return {
    get fan() {
      return state.fan;
    },
    get selected() {
      return state.selected;
    },
    select(answerId) {
      change({ selected: answerId });
    },

    loadFan() {
      void (async () => {
        try {
          const details = cardDetails.load().catch(() => undefined);
          const channel = host.channel ?? (await chooseVoteChannel(host.proxyUrl));
          resolvedChannel = channel;
          if (!channel || !current()) return;
          if (channel.via === 'popup' && !host.channel && host.proxyUrl) {
            session = (await details)?.pageSession(host.proxyUrl);
            if (session) {
              session.subscribe(followSession);
              return;
            }
          }
          const signedIn = await channel.isSignedIn();
          if (current() && state.fan.session === 'unknown')
            change({ fan: { ...state.fan, session: signedIn ? 'signed-in' : 'signed-out' } });
          if (signedIn) await readFanVote(channel);
        } catch {
          if (current() && state.fan.session === 'unknown')
            change({ fan: { ...state.fan, session: 'signed-out' } });
        }
      })();
    },

    renderAction(view, action, cardStrings) {
      const strings = withVoting(cardStrings);
      // The outcomes, errors and account line come with the details chunk (loaded as the voting started).
      const details = cardDetails.get(host);
      let content: TemplateResult | undefined;
      switch (action.kind) {
        case 'not-holder':
        case 'voted':
        case 'rejected':
          content = details?.renderOutcome(view, action, cardStrings);
          break;
        default: {
          const waiting = action.kind === 'voting' || action.kind === 'signing-in';
          const viaExtension = channelNow()?.via === 'extension' && !host.channel;
          const label = {
            'sign-in': strings.signIn,
            'signing-in': strings.signingIn,
            vote: strings.vote,
            voting: viaExtension ? strings.confirmInExtension : strings.voting,
            none: '',
            closed: '',
          }[action.kind];
          content = html`<button
              part="button"
              type="button"
              aria-disabled=${waiting}
              @click=${() => {
                act(action);
              }}
            >
              ${label}</button
            >${
              viaExtension && (action.kind === 'vote' || action.kind === 'voting')
                ? html`<span class="note" part="status">${strings.viaExtension}</span>`
                : action.kind === 'sign-in'
                  ? html`<span class="note">${strings.forHolders(view.partnerName)}</span>`
                  : nothing
            }`;
        }
      }
      const fan = session?.current;
      const error = state.voteError && details?.actionError(state.voteError, cardStrings);
      return html`<div part="actions">
          ${content}${error ? html`<span part="status" class="note">${error}</span>` : nothing}
        </div>
        ${
          details && session && fan?.state === 'signed-in'
            ? details.renderAccount(session, fan.userId, cardStrings, accountActions)
            : nothing
        }`;
    },
  };
}
