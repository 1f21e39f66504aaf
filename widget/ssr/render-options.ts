import type { TrackingParameterName } from '../../src/contracts/tracking.ts';
import type { ResultsSetting } from '../fan-poll/fan-poll.ts';

/** How a server renders one `<fan-poll>`: the element's attributes, as a page would write them. */
export interface RenderFanPollOptions extends Partial<Record<TrackingParameterName, string>> {
  /** The poll's id, for a card rendered without its poll (the server could not read it): it reads it in the browser. */
  readonly pollId?: string;
  /**
   * A `current` card: the clubs' `partner-ids` (as the page writes them) whose current poll `poll` is. The card is
   * written `current partner-ids=…` with no `poll-id`, so that once live it follows their current poll.
   */
  readonly currentOf?: string;
  /** The partner proxy's URL: the card reads and votes through it once it hydrates. */
  readonly proxy: string;
  /**
   * The card's language (`en` by default); give the page's. The card is rendered in it and carries it as its `lang`,
   * so that the browser hydrates the same words.
   */
  readonly lang?: string;
  readonly theme?: 'light' | 'dark' | 'auto';
  readonly transparent?: boolean;
  /** The card's live reads start at once instead of when it nears the viewport. */
  readonly eager?: boolean;
  readonly results?: ResultsSetting;
}
