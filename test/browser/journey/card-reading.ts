// What the journey reads of a card (the page's `<fan-poll>` or the banner's, inside its iframe) and the targets it
// clicks: one definition for the card and the banner, in every engine.
import type { Target } from './fan-browser.ts';

/** The card's targets, for a card named by `card` (a chain of selectors, see `Target`). */
export function cardTargets(card: string) {
  return {
    card,
    // Enabled: the card is live (a card drawn by the proxy shows its button before its element code hydrated it), its
    // voting part has loaded and found the fan signed out.
    signIn: {
      chain: `${card}:defined >> [part="button"]:not([aria-disabled="true"])`,
      hasText: 'Sign in to vote',
    } satisfies Target,
    vote: { chain: `${card} >> [part="actions"] button`, hasText: 'Vote' } satisfies Target,
    signOut: { chain: `${card} >> button`, hasText: 'Sign out' } satisfies Target,
    answer: (nth: number): Target => ({ chain: `${card} >> [part~="answer"] input`, nth }),
  };
}

export type CardTargets = ReturnType<typeof cardTargets>;

/** What the first card `chain` names shows right now: its poll, its actions' texts and its status line. */
export function readCard(chain: string) {
  const host = document.querySelector(chain);
  const root = host?.shadowRoot;
  const texts = (selector: string) =>
    [...(root?.querySelectorAll(selector) ?? [])].map((node) => node.textContent.replace(/\s+/g, ' ').trim());
  return {
    pollId: host?.getAttribute('poll-id') ?? '',
    answerIds: [...(root?.querySelectorAll('[part~="answer"] input') ?? [])].map(
      (input) => (input as HTMLInputElement).value,
    ),
    /** The answer the fan picked, as the card's inputs say. */
    picked:
      ([...(root?.querySelectorAll('[part~="answer"] input') ?? [])] as HTMLInputElement[]).find(
        (input) => input.checked,
      )?.value ?? '',
    buttons: texts('[part="actions"] button, [part="button"]'),
    /** The buttons that take a click now (a signed-in card's Vote stays inactive until the fan's vote is read). */
    enabled: texts(
      '[part="actions"] button:not([aria-disabled="true"]), [part="button"]:not([aria-disabled="true"])',
    ),
    status: texts('[part="status"]').join(' '),
    note: texts('[part="actions"] .note').join(' '),
    results: texts('[part~="answer"]').join(' | '),
    /** Each answer's share as its text says it (a number, locale aside) and as its bar stands, in the card's order. */
    shares: [...(root?.querySelectorAll('[part~="answer"]') ?? [])].map((answer) => ({
      text: Number.parseFloat(
        answer
          .querySelector('.percent')
          ?.textContent.replace(/[^\d.,]/g, '')
          .replace(',', '.') ?? '',
      ),
      bar: answer.querySelector('progress')?.value ?? Number.NaN,
    })),
  };
}

export type CardReading = ReturnType<typeof readCard>;
