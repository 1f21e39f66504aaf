import type { CSSResultGroup } from 'lit';
import { FanPoll } from '../fan-poll/fan-poll.ts';
import { cardStyles } from '../fan-poll/fan-poll.styles.ts';
import { cardDetails } from '../fan-poll/details-part.ts';

let defined: Promise<void> | undefined;

/**
 * Defines `<fan-poll>` in the server's element registry (Lit's DOM shim, on a server only), once, with the details
 * chunk loaded: every phase then renders in full, and the card's shadow root carries the details' styles beside its
 * own (the browser adopts both once it hydrates). The same element class otherwise: what the browser hydrates.
 */
export function defineServerCard(): Promise<void> {
  defined ??= cardDetails.load().then((details) => {
    if (customElements.get('fan-poll')) return;
    class ServerFanPoll extends FanPoll {
      static override styles: CSSResultGroup = [cardStyles, details.detailStyles];
    }
    customElements.define('fan-poll', ServerFanPoll);
  });
  return defined;
}
