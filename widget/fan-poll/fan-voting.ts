/**
 * The voting part of `<fan-poll>`, loaded after the card's first paint when its poll is open: finds how the fan
 * votes (extension, else the proxy's sign-in popup), signs in, votes once, and follows the vote's `voteStatus`.
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
import type { FanAction } from './fan-action.ts';
import type { VotingHost } from './voting-host.ts';

/** The card's words plus the voting part's: a language part carries both, English's voting words are here. */
function withVoting(strings: CardStrings): CardStrings & VotingStrings {
  return { ...enVoting, ...strings };
}

/** Re-reads of the fan's vote while the platform confirms it: after 2, 4, 8, 16 s. */
const voteStatusPollsMs = [2000, 4000, 8000, 16_000];

export interface FanVoting {
  /** Finds how to vote and whether the fan is signed in (and voted); failures leave the card in "sign in". */
  loadFan(): void;
  /** The fan's action area for an open poll or a vote already cast. */
  renderAction(view: PollView, action: FanAction, strings: CardStrings): TemplateResult;
}

/** The voting of one card for one poll: a new poll id gets a new one, so late answers never cross polls. */
export function createVoting(host: VotingHost): FanVoting {
  const pollId = host.pollId;
  let resolvedChannel: VoteChannel | undefined;
  // One action at a time: a second (or double) click while signing in or voting does nothing.
  let busy = false;
  const current = (): boolean => host.pollId === pollId && host.isConnected;
  const detail = () => ({ pollId, tracking: host.tracking });
  const words = (): CardStrings & VotingStrings => withVoting(host.cardStrings());
  const channelNow = (): VoteChannel | undefined =>
    host.channel ?? resolvedChannel ?? proxyVoteChannel(host.proxyUrl);

  async function readFanVote(channel: VoteChannel): Promise<void> {
    try {
      const view: FanPollView = await channel.fanView(pollId);
      if (!current()) return;
      const answer = view.answers.find((each) => each.voteStatus !== undefined);
      if (answer) host.fan = { ...host.fan, vote: { answerId: answer.id, voteStatus: answer.voteStatus } };
    } catch (error) {
      if (current() && error instanceof WidgetError && error.code === 'sign-in-required') {
        host.fan = { ...host.fan, session: 'signed-out' };
      }
    }
  }

  /** Re-reads the fan's vote until the platform gives it a final status (never re-sends the vote). */
  async function followVoteStatus(channel: VoteChannel): Promise<void> {
    for (const delay of voteStatusPollsMs) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (!current()) return;
      await readFanVote(channel);
      const status = host.fan.vote?.voteStatus;
      if (status !== undefined && status !== 'pending') return;
    }
  }

  function signIn(channel: VoteChannel): void {
    busy = true;
    host.voteError = undefined;
    host.fan = { ...host.fan, session: 'signing-in' };
    const event = (stage: 'started' | 'signed-in' | 'failed'): FanPollSignInEvent =>
      new FanPollSignInEvent({ ...detail(), stage, via: channel.via });
    host.dispatchEvent(event('started'));
    channel
      .signIn(host.tracking)
      .then(async (signedIn) => {
        host.fan = { ...host.fan, session: signedIn ? 'signed-in' : 'signed-out' };
        host.dispatchEvent(event(signedIn ? 'signed-in' : 'failed'));
        if (!signedIn) host.voteError = words().signInCancelled;
        else await readFanVote(channel);
      })
      .catch((error: unknown) => {
        host.fan = { ...host.fan, session: 'signed-out' };
        host.voteError =
          error instanceof WidgetError && error.code === 'popup-blocked'
            ? words().popupBlocked
            : words().signInFailed;
        host.dispatchEvent(event('failed'));
        host.reportError(error instanceof WidgetError ? error.code : 'sign-in-failed', error);
      })
      .finally(() => {
        busy = false;
      });
  }

  function vote(channel: VoteChannel): void {
    const answerId = host.selected;
    const strings = words();
    if (answerId === undefined) {
      host.voteError = strings.chooseAnswer;
      host.shadowRoot?.querySelector('input')?.focus();
      return;
    }
    busy = true;
    host.voteError = undefined;
    host.fan = { ...host.fan, voting: true };
    host.dispatchEvent(new FanPollVoteEvent({ ...detail(), answerId }));
    channel
      .vote(pollId, answerId)
      .then(async () => {
        host.fan = { ...host.fan, voting: false, vote: { answerId } };
        host.announce(
          strings.votedFor(host.currentView()?.answers.find((a) => a.id === answerId)?.text ?? ''),
        );
        host.dispatchEvent(new FanPollVotedEvent({ ...detail(), answerId }));
        host.refreshPoll();
        // The vote is in: the status reads below must not let the fan vote again, even if they fail.
        busy = false;
        await readFanVote(channel);
        if (host.fan.vote?.voteStatus === undefined || host.fan.vote.voteStatus === 'pending')
          await followVoteStatus(channel);
      })
      .catch(async (error: unknown) => {
        const code = error instanceof WidgetError ? error.code : 'vote-failed';
        host.fan = {
          ...host.fan,
          voting: false,
          notHolder: code === 'not-holder',
          pollClosed: code === 'poll-closed',
          session: code === 'sign-in-required' ? 'signed-out' : host.fan.session,
        };
        host.reportError(code, error);
        if (code === 'poll-closed') host.refreshPoll();
        else if (code === 'already-voted' || code === 'vote-refused') {
          host.voteError = code === 'already-voted' ? strings.alreadyVoted : strings.voteRefused;
          // Never a second vote: the fan's own view shows the vote the platform already has, if any.
          await readFanVote(channel);
        } else if (code !== 'not-holder') host.voteError = strings.errorVote;
      })
      .finally(() => {
        busy = false;
      });
  }

  function act(action: FanAction): void {
    if (busy || host.fan.vote) return;
    const channel = channelNow();
    if (!channel) return;
    if (action.kind === 'sign-in') signIn(channel);
    else if (action.kind === 'vote') vote(channel);
  }

  return {
    loadFan() {
      void (async () => {
        try {
          const channel = host.channel ?? (await chooseVoteChannel(host.proxyUrl));
          resolvedChannel = channel;
          if (!channel || !current()) return;
          const signedIn = await channel.isSignedIn();
          if (current() && host.fan.session === 'unknown')
            host.fan = { ...host.fan, session: signedIn ? 'signed-in' : 'signed-out' };
          if (signedIn) await readFanVote(channel);
        } catch {
          if (current() && host.fan.session === 'unknown') host.fan = { ...host.fan, session: 'signed-out' };
        }
      })();
    },

    renderAction(view, action, cardStrings) {
      const strings = withVoting(cardStrings);
      const answerText = (id: string): string => view.answers.find((answer) => answer.id === id)?.text ?? '';
      let content: TemplateResult;
      switch (action.kind) {
        case 'not-holder':
          content = html`<span class="note">${strings.notHolder(view.partnerName)}</span>`;
          break;
        case 'voted':
          content = html`<span class="note"
            >${strings.votedFor(answerText(action.answerId))}${
              action.voteStatus ? ` (${strings.voteStatus(action.voteStatus)})` : ''
            }</span
          >`;
          break;
        case 'rejected':
          content = html`<span class="note">${strings.rejected}</span>`;
          break;
        default: {
          const waiting = action.kind === 'voting' || action.kind === 'signing-in';
          const label = {
            'sign-in': strings.signIn,
            'signing-in': strings.signingIn,
            vote: strings.vote,
            voting: strings.voting,
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
            ${label}
          </button>`;
        }
      }
      return html`<div part="actions">
        ${content}${host.voteError ? html`<span part="status" class="note">${host.voteError}</span>` : nothing}
      </div>`;
    },
  };
}
