import type { FanPoll } from '../fan-poll/fan-poll.ts';

/**
 * Carries what the fan did on a server-rendered or drawn card before it was live into the live card, for `cards`
 * about to hydrate (called just before `<fan-poll>` is defined). An answer is a native radio, which the fan picks with
 * no script; hydration sets every radio's `checked` from the card's state, which does not know that pick yet, so once
 * the card is live the radio is checked again and sends the change it would have sent, which the card's voting keeps
 * as the fan's pick. The action button of a card the proxy drew shows that it is getting ready until the card is live
 * (`delivery/drawn-cards.ts`); hydration leaves attributes as drawn, so its own value is written back. Nothing here
 * signs in nor votes: the fan's tap on the live button does.
 */
export function keepEarlyTaps(cards: readonly FanPoll[]): void {
  for (const card of cards) {
    const root = card.shadowRoot;
    if (!root) continue;
    root.querySelector('[part="button"][aria-disabled="true"]')?.setAttribute('aria-disabled', 'false');
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
