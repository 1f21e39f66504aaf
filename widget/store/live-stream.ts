import { eventSourcePollStream } from '../../src/polls/event-source-stream.ts';
import type { MakePacer } from '../../src/polls/live-store-core.ts';
import { streamingPacer } from '../../src/polls/streaming-pacer.ts';
import { readCardPolls } from './card-polls.ts';

/**
 * The page store's pacing once the first read is on screen (a chunk of its own): the page's one stream of its polls
 * from the proxy, and reads once per pace for what the stream does not carry.
 */
export function livePacer(proxyUrl: string): MakePacer {
  // The cards the fan sees are counted for the club's analytics from now on, in a chunk of their own.
  import('../analytics/watch-page-cards.ts').then(
    ({ watchPageCards }) => {
      watchPageCards();
    },
    () => undefined,
  );
  return streamingPacer({ open: eventSourcePollStream(proxyUrl, readCardPolls) });
}
