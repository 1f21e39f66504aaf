// A club's page in React: a card and a banner from `fan-polls/react` (typed props and event props), a list as the
// plain `<fan-poll-list>` tag, the advice for any error code, and every event React received, listed in the page.
import { useCallback, useState } from 'react';
import { fanPollErrorCodes, type FanPollErrorCode } from 'fan-polls';
import { FanPoll, FanPollFrame, type FanPollProps } from 'fan-polls/react';

interface SeenEvent {
  readonly source: 'card' | 'banner';
  readonly type: string;
  readonly detail: unknown;
}

interface AppProps {
  readonly proxy: string;
  readonly pollId: string;
  readonly partnerId: string;
}

const tracking: Pick<FanPollProps, 'referrer' | 'campaign'> = { referrer: 'react-app', campaign: 'wrapper' };

export function App({ proxy, pollId, partnerId }: AppProps) {
  const [events, setEvents] = useState<readonly SeenEvent[]>([]);
  const [advice, setAdvice] = useState<string>();
  const seen = useCallback(
    (source: SeenEvent['source']) => (event: Event & { detail: unknown }) => {
      setEvents((list) => [...list, { source, type: event.type, detail: event.detail }]);
    },
    [],
  );
  const card = seen('card');
  const banner = seen('banner');
  const explain = (code: FanPollErrorCode) => setAdvice(fanPollErrorCodes[code]);
  return (
    <main>
      <h1>A React app</h1>
      <FanPoll
        proxy={proxy}
        pollId={pollId}
        {...tracking}
        onReady={card}
        onVote={card}
        onVoted={card}
        onSignIn={card}
        onError={(event) => {
          card(event);
          explain(event.detail.code);
        }}
      />
      {advice && <p id="advice">{advice}</p>}
      <FanPollFrame
        proxy={proxy}
        pollId={pollId}
        theme="dark"
        campaign="banner"
        onReady={banner}
        onError={banner}
      />
      <fan-poll-list proxy={proxy} partner-ids={partnerId} limit={2} campaign="list" />
      <ol id="events">
        {events.map((event, index) => (
          <li key={index}>{JSON.stringify(event)}</li>
        ))}
      </ol>
    </main>
  );
}
