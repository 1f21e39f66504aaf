import type { FanPoll } from '../fan-poll/fan-poll.ts';

/**
 * Carries what the fan did on a server-rendered or drawn card before it was live into the live card, for `cards`
 * about to hydrate (called just before `<fan-poll>` is defined). An answer is a native radio, which the fan picks with
 * no script; hydration sets every radio's `checked` from the card's state, which does not know that pick yet, so once
 * the card is live the radio is checked again and sends the change it would have sent, which the card's voting keeps
 * as the fan's pick. The buttons a drawn card shows, its action and its share, say that they are getting ready until
 * the card is live (`showGettingReady`); hydration leaves attributes as drawn, so each gets its own look back. Nothing
 * here signs in, votes nor shares: the fan's tap on the live button does.
 */
export function keepEarlyTaps(cards: readonly FanPoll[]): void {
  for (const card of cards) {
    const root = card.shadowRoot;
    if (!root) continue;
    root.querySelector('[part="button"][aria-disabled="true"]')?.setAttribute('aria-disabled', 'false');
    root.querySelector('[part="share"]')?.removeAttribute('aria-disabled');
    const picked = root.querySelector<HTMLInputElement>('input[type="radio"]:checked');
    if (picked)
      void customElements
        .whenDefined('fan-poll')
        .then(() => card.updateComplete)
        .then(() => {
          // The same input, hydrated (not drawn again), and still open to a pick.
          if (!root.contains(picked) || picked.disabled) return;
          picked.checked = true;
          picked.dispatchEvent(new Event('change', { bubbles: true }));
        });
  }
}

/**
 * A drawn card's buttons that only the live card answers (its action, its share) take the waiting look
 * (`aria-disabled`: dimmed, a progress cursor) until `keepEarlyTaps` gives them back theirs.
 */
export function showGettingReady(root: ShadowRoot): void {
  for (const button of root.querySelectorAll('[part="button"], [part="share"]'))
    button.setAttribute('aria-disabled', 'true');
}
