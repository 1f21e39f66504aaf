/**
 * The three tags' attributes as TypeScript sees them in markup, and `<fan-poll>`, `<fan-poll-list>` and
 * `<fan-poll-frame>` as intrinsic elements of the global `JSX` namespace (TSX without React: Preact's classic
 * runtime, Stencil-style `h`, any factory). React's `JSX` gets them from `fan-polls/react`.
 */
import type { ListFilterName, ListIdName } from '../fan-poll-list/list-attributes.ts';
import type { TrackingParameterName as TrackingKey } from '../../src/contracts/tracking.ts';

/** A boolean attribute written in markup: present (`true`, `''`) or absent. */
type BooleanAttribute = boolean | '';
type Theme = 'light' | 'dark' | 'auto';

/** The five tracking parameters, carried into sign-in and every event. */
export type TrackingAttributes = Partial<Record<TrackingKey, string>>;

/** The partner's links under a card: the next step, getting tokens, checking the result (`https:` only). */
export interface PartnerLinkAttributes {
  'next-href'?: string;
  'next-label'?: string;
  'get-tokens-href'?: string;
  /** A template: its `{address}` becomes the poll's `blockchainAddress`, URL-encoded. */
  'verify-href'?: string;
}

/** Instead of `poll-id`: the current poll of the clubs in `partner-ids` (uuids separated by spaces or commas). */
export interface CurrentPollAttributes {
  current?: BooleanAttribute;
  'partner-ids'?: string;
}

/** `<fan-poll>`'s attributes. */
export interface FanPollAttributes extends TrackingAttributes, PartnerLinkAttributes, CurrentPollAttributes {
  'poll-id'?: string;
  proxy?: string;
  theme?: Theme;
  transparent?: BooleanAttribute;
  eager?: BooleanAttribute;
  lang?: string;
}

/** `<fan-poll-list>`'s attributes: the spec's filters, the ids, and what it passes to each card. */
export interface FanPollListAttributes
  extends TrackingAttributes, Partial<Record<ListFilterName | ListIdName, string | number | boolean>> {
  proxy?: string;
  theme?: Theme;
  transparent?: BooleanAttribute;
  lang?: string;
}

/** `<fan-poll-frame>`'s attributes (read once, when it connects). */
export interface FanPollFrameAttributes
  extends TrackingAttributes, PartnerLinkAttributes, CurrentPollAttributes {
  'poll-id'?: string;
  theme?: Theme;
  transparent?: BooleanAttribute;
  lang?: string;
}

/** What any element takes in plain TSX besides its own attributes. */
interface CommonAttributes {
  class?: string;
  id?: string;
  slot?: string;
  hidden?: boolean;
  style?: string;
  children?: unknown;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- TSX's intrinsic elements can only be declared so.
  namespace JSX {
    interface IntrinsicElements {
      'fan-poll': FanPollAttributes & CommonAttributes;
      'fan-poll-list': FanPollListAttributes & CommonAttributes;
      'fan-poll-frame': FanPollFrameAttributes & CommonAttributes;
    }
  }
}
