import { cardEventProps } from '../package/react-event-props.ts';
import { code, table } from './markdown-table.ts';
import type { ReferenceManifest } from './reference-manifest.ts';

type Declaration = NonNullable<ReferenceManifest['modules'][number]['declarations']>[number];

/** A React prop as the reference lists it. */
type PropRow = readonly [prop: string, type: string, description: string];

/** Each component of `fan-polls/react`: its element, which of the card's events it takes, and its own props. */
const components = [
  { name: 'FanPoll', tag: 'fan-poll', events: Object.keys(cardEventProps), own: [] },
  { name: 'FanPollList', tag: 'fan-poll-list', events: ['onError'], own: [] },
  {
    name: 'FanPollFrame',
    tag: 'fan-poll-frame',
    events: Object.keys(cardEventProps),
    own: [
      ['proxy', 'string', 'Required: the partner proxy the element and its iframe page are loaded from.'],
      ['className', 'string', 'The element’s `class`.'],
      ['onLoadError', '(error: unknown) => void', 'The element could not be loaded from the proxy.'],
    ],
  },
] as const satisfies readonly {
  name: string;
  tag: string;
  events: readonly string[];
  own: readonly PropRow[];
}[];

/** `poll-id` to `pollId`. */
function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The React components' props: the elements' attributes in camelCase, their JavaScript properties, their events. */
export function reactSection(elements: readonly Declaration[]): string[] {
  const lines = [
    '## React components',
    '',
    '`fan-polls/react` (React 18 or 19): one component per element. Each attribute is a camelCase prop (`poll-id`',
    'is `pollId`), each event an `on...` prop whose event has the typed `detail` above, and `ref` is the element.',
    'Importing it defines `<fan-poll>` and `<fan-poll-list>` in a browser, and nothing on a server (SSR renders the',
    'tags; the client defines them when it hydrates). The three tags are also typed in React’s JSX, and in the global',
    '`JSX` namespace by `fan-polls` for other TSX runtimes.',
    '',
  ];
  for (const component of components) {
    const element = elements.find((declaration) => declaration.tagName === component.tag);
    const own: readonly PropRow[] = component.own;
    const attributes = (element?.attributes ?? []).map((attribute): PropRow => [
      camelCase(attribute.name),
      attribute.type?.text ?? 'string',
      attribute.description ?? '',
    ]);
    const properties = (element?.members ?? [])
      .filter(
        (member) =>
          member.kind === 'field' && member.privacy === 'public' && !member.attribute && !member.static,
      )
      .map((member): PropRow => [member.name, member.type?.text ?? '', member.description ?? '']);
    const events = component.events.map((prop): PropRow => {
      const name = cardEventProps[prop as keyof typeof cardEventProps];
      const event = element?.events?.find((candidate) => candidate.name === name);
      return [prop, `(event: ${event?.type?.text ?? 'Event'}) => void`, `\`${name}\``];
    });
    lines.push(
      `### ${code(`<${component.name}>`)}`,
      '',
      `Renders ${code(`<${component.tag}>`)}.`,
      '',
      table(
        ['prop', 'type', 'description'],
        [...own, ...attributes, ...properties, ...events].map(([prop, type, description]) => [
          code(prop),
          code(type),
          description,
        ]),
      ),
      '',
    );
  }
  return lines;
}
