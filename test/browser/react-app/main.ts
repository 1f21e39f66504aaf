// A partner's React 19 app using the npm package's React components: a card, an iframe banner and a list of the
// club's polls from the proxy in the page's query (`?proxy=&poll=&partner=`), and every event they fire, as React received it, listed in the page.
import { StrictMode, createElement as h, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { FanPoll, FanPollFrame, FanPollList } from 'fan-polls/react';

const params = new URLSearchParams(location.search);
const proxy = params.get('proxy') ?? '';
const pollId = params.get('poll') ?? '';
const partnerId = params.get('partner') ?? '';

/** What a component's event prop received. */
export interface SeenEvent {
  readonly source: 'card' | 'banner';
  readonly type: string;
  readonly detail: unknown;
}

function App() {
  const [events, setEvents] = useState<readonly SeenEvent[]>([]);
  const seen = useCallback(
    (source: SeenEvent['source']) => (event: Event & { detail: unknown }) => {
      setEvents((list) => [...list, { source, type: event.type, detail: event.detail }]);
    },
    [],
  );
  const card = seen('card');
  const banner = seen('banner');
  return h(
    'main',
    null,
    h('h1', null, 'A React app'),
    h(FanPoll, {
      proxy,
      pollId,
      referrer: 'react-app',
      campaign: 'wrapper',
      onReady: card,
      onVote: card,
      onVoted: card,
      onSignIn: card,
      onError: card,
    }),
    h(FanPollFrame, { proxy, pollId, theme: 'dark', campaign: 'banner', onReady: banner, onError: banner }),
    h(FanPollList, { proxy, partnerIds: partnerId, limit: 2, campaign: 'list' }),
    h(
      'ol',
      { id: 'events' },
      events.map((event, index) => h('li', { key: index }, JSON.stringify(event))),
    ),
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(h(StrictMode, null, h(App)));
