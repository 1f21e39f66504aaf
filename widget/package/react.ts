/**
 * `fan-polls/react`: React components for `<fan-poll>`, `<fan-poll-list>` and `<fan-poll-frame>` on `@lit/react`,
 * with typed props and `on...` event props. Importing it defines the two Lit elements (as `fan-polls/define`); pass
 * `proxy` to each component, or call `defineFanPolls({ proxy })` once.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import { FanPollList as FanPollListElement } from '../fan-poll-list/fan-poll-list.ts';
import { FanPoll as FanPollElement, type ResultsSetting } from '../fan-poll/fan-poll.ts';
import type {
  FanPollCurrentChangedEvent,
  FanPollErrorEvent,
  FanPollNextEvent,
  FanPollReadyEvent,
  FanPollShareEvent,
  FanPollSignInEvent,
  FanPollVoteEvent,
  FanPollVotedEvent,
} from '../events/card-events.ts';
import type { ListFilterName, ListIdName } from '../fan-poll-list/list-attributes.ts';
import { trackingParameterNames, type TrackingParameterName } from '../../src/contracts/tracking.ts';
import { defineFanPolls } from './define-fan-polls.ts';
import { loadFanPollFrame, type FanPollFrameElement } from './fan-poll-frame.ts';
import { cardEventProps as cardEventNamesByProp } from './react-event-props.ts';
import { useAttributes, type AttributeValue } from './use-attributes.ts';
import type {
  FanPollAttributes,
  FanPollFrameAttributes,
  FanPollListAttributes,
} from './element-attributes.ts';

/** The tags themselves in React's JSX (React 19 sets what the element has as a property, the rest as attributes). */
type IntrinsicElement<Attributes> = React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> &
  Attributes;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React's intrinsic elements can only be declared so.
  namespace JSX {
    interface IntrinsicElements {
      'fan-poll': IntrinsicElement<FanPollAttributes>;
      'fan-poll-list': IntrinsicElement<FanPollListAttributes>;
      'fan-poll-frame': IntrinsicElement<FanPollFrameAttributes>;
    }
  }
}

void defineFanPolls();

/** The card's events as React props, each typed with its detail. */
const cardEvents = {
  onReady: cardEventNamesByProp.onReady as EventName<FanPollReadyEvent>,
  onVote: cardEventNamesByProp.onVote as EventName<FanPollVoteEvent>,
  onVoted: cardEventNamesByProp.onVoted as EventName<FanPollVotedEvent>,
  onSignIn: cardEventNamesByProp.onSignIn as EventName<FanPollSignInEvent>,
  onError: cardEventNamesByProp.onError as EventName<FanPollErrorEvent>,
  onCurrentChanged: cardEventNamesByProp.onCurrentChanged as EventName<FanPollCurrentChangedEvent>,
  onNext: cardEventNamesByProp.onNext as EventName<FanPollNextEvent>,
  onShare: cardEventNamesByProp.onShare as EventName<FanPollShareEvent>,
};

/** The five tracking parameters, carried into sign-in and every event. */
export type TrackingProps = Partial<Record<TrackingParameterName, string>>;

/** Attribute name (`partner-ids`) to prop name (`partnerIds`). */
type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;
/** The list's filters (the spec's), as props; each is written as its attribute. */
export type ListFilterProps = Partial<
  Record<CamelCase<ListFilterName | ListIdName>, string | number | boolean>
>;

const FanPollCard = createComponent({
  tagName: 'fan-poll',
  elementClass: FanPollElement,
  react: React,
  events: cardEvents,
  displayName: 'FanPoll',
});

/** The partner's links under a card and the club's current poll, as props; each is written as its attribute. */
export interface CardAttributeProps {
  /** Instead of `pollId`: the current poll of the clubs in `partnerIds`, followed as it changes. */
  readonly current?: boolean;
  /** With `current`: the clubs' partner ids, uuids separated by spaces or commas. */
  readonly partnerIds?: string;
  /** The next step, linked once the fan's vote is accepted and once the poll closed (`https:` only). */
  readonly nextHref?: string;
  readonly nextLabel?: string;
  /** Where a fan without the club's tokens gets them (`https:` only). */
  readonly getTokensHref?: string;
  /** A closed poll's record on its chain: `{address}` becomes its `blockchainAddress` (`https:` only). */
  readonly verifyHref?: string;
}

const cardAttributeNames = {
  current: 'current',
  partnerIds: 'partner-ids',
  nextHref: 'next-href',
  nextLabel: 'next-label',
  getTokensHref: 'get-tokens-href',
  verifyHref: 'verify-href',
} as const satisfies Record<keyof CardAttributeProps, string>;

/**
 * `<fan-poll>`: `pollId` (or `current` with `partnerIds`), `proxy`, `theme`, `transparent`, `eager`, `lang`,
 * `results`, the partner's links, the tracking props and `on...` events.
 */
export type FanPollProps = Omit<
  React.ComponentProps<typeof FanPollCard>,
  TrackingParameterName | 'tracking' | keyof CardAttributeProps
> &
  TrackingProps &
  CardAttributeProps;

/** A live poll card. Tracking props, the partner's links and `current` are written as attributes (where the card reads them). */
export const FanPoll = React.forwardRef<FanPollElement, FanPollProps>(function FanPoll(props, ref) {
  const [attributes, rest] = split(props, [...trackingNames, ...Object.keys(cardAttributeNames)]);
  const element = useAttributes<FanPollElement>(ref, attributeNamesOf(attributes));
  return React.createElement(FanPollCard, { ...rest, ref: element });
});

/** Props named as their attributes (`nextHref` as `next-href`); a `true` boolean as present. */
function attributeNamesOf(props: Record<string, AttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(
    Object.entries(props).map(([name, value]) => [
      (cardAttributeNames as Record<string, string>)[name] ?? name,
      value,
    ]),
  );
}

const FanPollListInner = createComponent({
  tagName: 'fan-poll-list',
  elementClass: FanPollListElement,
  react: React,
  events: { onError: cardEvents.onError },
  displayName: 'FanPollList',
});

/**
 * `<fan-poll-list>`: `proxy`, `theme`, `transparent`, `lang`, `results`, the spec's filters, the tracking props,
 * `onError`.
 */
export type FanPollListProps = Pick<
  React.ComponentProps<typeof FanPollListInner>,
  | 'proxy'
  | 'theme'
  | 'transparent'
  | 'lang'
  | 'results'
  | 'store'
  | 'pollIds'
  | 'onError'
  | 'className'
  | 'id'
  | 'children'
> &
  ListFilterProps &
  TrackingProps;

const listAttributeNames: Readonly<Record<string, string>> = {
  search: 'search',
  quorumReached: 'quorum-reached',
  bound: 'bound',
  disclosedFrom: 'disclosed-from',
  disclosedTo: 'disclosed-to',
  publishedFrom: 'published-from',
  publishedTo: 'published-to',
  openFrom: 'open-from',
  openTo: 'open-to',
  closeFrom: 'close-from',
  closeTo: 'close-to',
  page: 'page',
  limit: 'limit',
  orderBy: 'order-by',
  direction: 'direction',
  partnerIds: 'partner-ids',
  ids: 'ids',
} satisfies Record<keyof ListFilterProps, ListFilterName | ListIdName>;

/** The polls chosen by the spec's filters, each a live card. Filters and tracking are written as attributes. */
export const FanPollList = React.forwardRef<FanPollListElement, FanPollListProps>(
  function FanPollList(props, ref) {
    const [attributes, rest] = split(props, [...trackingNames, ...Object.keys(listAttributeNames)]);
    const named = Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [listAttributeNames[name] ?? name, value]),
    );
    const element = useAttributes<FanPollListElement>(ref, named);
    return React.createElement(FanPollListInner, { ...rest, ref: element });
  },
);

/**
 * `<fan-poll-frame>`: the proxy it comes from, the poll (or `current` with `partnerIds`), theme, language, results, the
 * partner's links, tracking, and the card's events.
 */
export interface FanPollFrameProps extends TrackingProps, CardAttributeProps {
  /** The partner proxy: the element and its iframe page are loaded from it (`loadFanPollFrame`). */
  readonly proxy: string;
  /** The poll to show; none with `current`. */
  readonly pollId?: string;
  readonly theme?: 'light' | 'dark' | 'auto';
  readonly transparent?: boolean;
  readonly lang?: string;
  /** Who sees an open poll's shares: `always` (default), `after-vote` or `after-close`. */
  readonly results?: ResultsSetting;
  readonly className?: string;
  readonly onReady?: (event: CustomEvent<FanPollReadyEvent['detail']>) => void;
  readonly onVote?: (event: CustomEvent<FanPollVoteEvent['detail']>) => void;
  readonly onVoted?: (event: CustomEvent<FanPollVotedEvent['detail']>) => void;
  readonly onSignIn?: (event: CustomEvent<FanPollSignInEvent['detail']>) => void;
  readonly onError?: (event: CustomEvent<FanPollErrorEvent['detail']>) => void;
  readonly onCurrentChanged?: (event: CustomEvent<FanPollCurrentChangedEvent['detail']>) => void;
  readonly onNext?: (event: CustomEvent<FanPollNextEvent['detail']>) => void;
  readonly onShare?: (event: CustomEvent<FanPollShareEvent['detail']>) => void;
  /** The element could not be loaded from the proxy. */
  readonly onLoadError?: (error: unknown) => void;
}

/**
 * The iframe banner. The element reads its attributes once, when it connects: a new `pollId` (or theme, language,
 * tracking) gives a new element (React's `key`).
 */
export function FanPollFrame(props: FanPollFrameProps): React.ReactElement {
  const { proxy, pollId, theme, transparent, lang, results, className, onLoadError } = props;
  const [loaded, setLoaded] = React.useState(false);
  React.useEffect(() => {
    let current = true;
    loadFanPollFrame(proxy).then(
      () => {
        if (current) setLoaded(true);
      },
      (error: unknown) => {
        if (current) onLoadError?.(error);
      },
    );
    return () => {
      current = false;
    };
  }, [proxy, onLoadError]);
  const listeners = React.useRef(props);
  listeners.current = props;
  // The card's events, re-dispatched on the element, reach the current props' handlers.
  const detach = React.useRef<(() => void) | undefined>(undefined);
  const element = React.useCallback((node: FanPollFrameElement | null) => {
    detach.current?.();
    detach.current = undefined;
    if (!node) return;
    const forward = (event: Event): void => {
      const prop = cardEventProps.get(event.type);
      const listener = prop ? listeners.current[prop] : undefined;
      (listener as ((event: Event) => void) | undefined)?.(event);
    };
    for (const name of cardEventProps.keys()) node.addEventListener(name, forward);
    detach.current = () => {
      for (const name of cardEventProps.keys()) node.removeEventListener(name, forward);
    };
  }, []);
  if (!loaded) return React.createElement('div', { className, 'data-fan-poll-frame': 'loading' });
  const tracking = Object.fromEntries(
    trackingParameterNames.flatMap((key) => (props[key] ? [[key, props[key]]] : [])),
  );
  const card = Object.fromEntries(
    Object.entries(cardAttributeNames).flatMap(([prop, attribute]) => {
      const value = props[prop as keyof CardAttributeProps];
      return value === undefined || value === false ? [] : [[attribute, value === true ? '' : value]];
    }),
  );
  return React.createElement('fan-poll-frame', {
    key: [pollId, theme, transparent, lang, results, ...Object.values(tracking), ...Object.values(card)].join(
      ' ',
    ),
    ref: element,
    class: className,
    'poll-id': pollId,
    theme,
    transparent: transparent ? '' : undefined,
    lang,
    results,
    ...tracking,
    ...card,
  });
}

const trackingNames: readonly string[] = trackingParameterNames;
/** Event name to the React prop that handles it. */
const cardEventProps = new Map(
  Object.entries(cardEvents).map(([prop, name]) => [name as string, prop as keyof typeof cardEvents]),
);

/** `props` split into those named in `names` (typed props written as attributes) and the rest. */
function split(
  props: object,
  names: readonly string[],
): [Record<string, AttributeValue>, Record<string, unknown>] {
  const picked: Record<string, AttributeValue> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props) as [string, AttributeValue][])
    (names.includes(key) ? picked : rest)[key] = value;
  return [picked, rest];
}
