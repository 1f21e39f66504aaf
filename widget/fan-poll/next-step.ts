/**
 * What follows the vote under a card (details chunk): the partner's links, the next step once the fan's vote is
 * accepted or the poll has closed (`next-href`, `next-label`), getting the club's tokens for a fan who holds none
 * (`get-tokens-href`), the poll's record on its chain once it closed (`verify-href`), each firing `fan-poll-next`;
 * and sharing the poll once the fan voted or it closed (`share-action.ts`).
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import { FanPollNextEvent, type FanPollNextDetail } from '../events/fan-poll-next-event.ts';
import { detailWords } from '../i18n/detail-words.ts';
import type { CardStrings } from '../i18n/strings.ts';
import type { PollView } from '../store/poll-model.ts';
import type { FanAction } from '../voting/fan-action.ts';
import { partnerLink } from './partner-links.ts';
import { renderShareAction, type SharingCard } from './share-action.ts';

/** What the links and sharing need of their card (`FanPoll`). */
export interface LinkingCard extends SharingCard {
  readonly pollId: string;
  readonly tracking: TrackingParameters;
}

const nextStepStyles = css`
  .next-step {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 16px;
    margin: 12px 0 0;
  }
  .next-step a {
    display: inline-flex;
    align-items: center;
    min-height: 24px;
    color: var(--_accent);
    font-weight: 600;
    text-underline-offset: 3px;
  }
  .next-step .share {
    min-height: 24px;
    padding: 0;
    border: 0;
    background: none;
    color: var(--_accent);
    font: inherit;
    font-weight: 600;
    text-decoration: underline;
    text-underline-offset: 3px;
    cursor: pointer;
  }
  .next-step a:focus-visible,
  .next-step .share:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
    border-radius: 4px;
  }
`;

/** The links and the share action this card shows now, or nothing. */
export function renderNextStep(
  card: LinkingCard,
  view: PollView,
  action: FanAction,
  strings: CardStrings,
): TemplateResult | typeof nothing {
  const words = detailWords(strings);
  const tracking = card.tracking;
  const ended = view.phase === 'closed' || view.phase === 'disclosed';
  const accepted = action.kind === 'voted' && action.voteStatus === 'accepted';
  const links: { link: FanPollNextDetail['link']; href: string | undefined; label: string; away: boolean }[] =
    [];
  if (action.kind === 'not-holder')
    links.push({
      link: 'get-tokens',
      href: partnerLink(card, 'get-tokens-href', { tracking }),
      label: words.getTokens(view.partnerName),
      away: true,
    });
  if (accepted || ended)
    links.push({
      link: 'next',
      href: partnerLink(card, 'next-href', { tracking }),
      label: card.getAttribute('next-label')?.trim() || words.nextStep,
      away: false,
    });
  if (ended)
    links.push({
      link: 'verify',
      href: partnerLink(card, 'verify-href', { tracking, address: view.blockchainAddress }),
      label: words.checkResult,
      away: true,
    });
  const shown = links.filter((each) => each.href !== undefined);
  const shareable = ended || action.kind === 'voted';
  if (shown.length === 0 && !shareable) return nothing;
  adoptOnce(card);
  return html`<div part="next" class="next-step">
    ${shown.map(
      ({ link, href, label, away }) =>
        html`<a
          href=${href ?? ''}
          target=${away ? '_blank' : '_top'}
          rel=${away ? 'noopener noreferrer' : nothing}
          @click=${() => {
            card.dispatchEvent(
              new FanPollNextEvent({ pollId: card.pollId, tracking, link, href: href ?? '' }),
            );
          }}
          >${label}</a
        >`,
    )}
    ${shareable ? renderShareAction(card, view, strings) : nothing}
  </div>`;
}

/**
 * The links' styles beside the card's, adopted after the render that needs them (the card adopts its own and the
 * details chunk's once, which would drop a sheet added before).
 */
function adoptOnce(card: HTMLElement): void {
  queueMicrotask(() => {
    const root = card.shadowRoot;
    const sheet = nextStepStyles.styleSheet;
    if (!root || !sheet || root.adoptedStyleSheets.includes(sheet)) return;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  });
}
