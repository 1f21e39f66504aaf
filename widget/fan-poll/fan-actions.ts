import { html, nothing, type TemplateResult } from 'lit';
import type { FanVoteController } from '../controllers/fan-vote-controller.ts';
import { enVoting } from '../i18n/en-voting.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';
import type { CardDetails } from './details-part.ts';
import type { FanAction } from '../voting/fan-action.ts';

/**
 * The fan's action area of an open poll (or a vote already cast): the button (sign in, vote) is here, at first paint;
 * the outcome, the last action's error and the account line come with the details chunk (`action-area.ts`, loaded as
 * the voting started), into the same template: a card drawn with the details chunk hydrates without it (its first
 * render, before the fan's session is known, shows the same button in the same area). A pure template of the card's
 * voting state.
 */
export function renderFanActions(
  voting: FanVoteController,
  options: {
    view: PollView;
    action: FanAction;
    strings: CardStrings;
    details: CardDetails | undefined;
    /** The host page gave the card its channel (no extension note then). */
    hostChannel: boolean;
  },
): TemplateResult {
  const { view, action, details, strings } = options;
  const button =
    action.kind === 'not-holder' || action.kind === 'voted' || action.kind === 'rejected'
      ? undefined
      : renderButton(voting, options);
  // Content, status, account (`ActionAreaParts`): the button alone until the details chunk is here.
  const parts = details?.actionArea(voting, view, action, strings, button);
  return html`<div part="actions">${parts?.[0] ?? button}${parts?.[1]}</div>
    ${parts?.[2]}`;
}

function renderButton(
  voting: FanVoteController,
  options: { view: PollView; action: FanAction; strings: CardStrings; hostChannel: boolean },
): TemplateResult {
  const { action } = options;
  // The card's words plus the voting's: a language chunk carries both, English's voting words are in the card.
  const strings = { ...enVoting, ...options.strings };
  const waiting =
    voting.busy || action.kind === 'voting' || action.kind === 'signing-in' || action.kind === 'checking';
  const viaExtension = voting.channel?.via === 'extension' && !options.hostChannel;
  const labels: Partial<Record<FanAction['kind'], string>> = {
    'sign-in': strings.signIn,
    'signing-in': strings.signingIn,
    vote: strings.vote,
    // Neutral until the fan's vote is read: the button stays, inactive.
    checking: strings.vote,
    voting: viaExtension ? strings.confirmInExtension : strings.voting,
  };
  return html`<button
      part="button"
      type="button"
      aria-disabled=${waiting}
      @click=${() => {
        if (action.kind === 'sign-in' || action.kind === 'vote') voting.act(action.kind);
      }}
    >
      ${labels[action.kind] ?? ''}</button
    >${
      viaExtension && (action.kind === 'vote' || action.kind === 'voting')
        ? html`<span class="note" part="status">${strings.viaExtension}</span>`
        : action.kind === 'sign-in'
          ? html`<span class="note">${strings.forHolders(options.view.partnerName)}</span>`
          : nothing
    }`;
}
