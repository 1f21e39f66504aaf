// The polls the widget benches show: an open one, a read-only one (closed or disclosed) and the first ten, as the
// proxy answers them (the floors draw them from these).
import { proxyRoutes } from '../../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../../src/platform/types.ts';
import { viewPoll } from '../../../src/polls/poll-view.ts';
import type { PollChoice } from './article-pages.ts';

export async function choosePolls(proxyUrl: string): Promise<PollChoice> {
  const body = (await (await fetch(`${proxyUrl}${proxyRoutes.polls}?limit=50`)).json()) as { data: Poll[] };
  const now = Date.now();
  const phase = (poll: Poll) => viewPoll(poll, now).phase;
  const open = body.data.find((poll) => phase(poll) === 'open');
  const readOnly = body.data.find((poll) => phase(poll) === 'disclosed' || phase(poll) === 'closed');
  if (!open || !readOnly) throw new Error('The sandbox has no open or no read-only poll.');
  return {
    open: open.id,
    readOnly: readOnly.id,
    ten: body.data.slice(0, 10).map((poll) => poll.id),
    byId: new Map(body.data.map((poll) => [poll.id, poll])),
  };
}
