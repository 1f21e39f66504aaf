import { describe, expect, it } from 'vitest';
import type { VoteProposal } from '../shared/messages.ts';
import { VoteProposals, type ProposalBinding } from './vote-proposals.ts';

const pollId = '0b7a3c1e-4d5f-4a6b-8c7d-9e0f1a2b3c4d';
const answerA = '21111111-2222-4333-8444-555555555555';
const answerB = '31111111-2222-4333-8444-555555555555';
const proposal: VoteProposal = {
  site: 'https://club.example',
  partnerName: 'Riverside FC',
  question: 'Who was the player of the match?',
  answers: [
    { id: answerA, text: 'Ada' },
    { id: answerB, text: 'Bea' },
  ],
  proposedAnswerId: answerA,
  binding: true,
  tokenLimit: 500,
};

const binding: ProposalBinding = { sessionId: 'session-1', site: 'https://club.example', tabId: 7 };

/** What holds now, as the background would check it: the session, the site heard, the tab's page. */
const holding = { sessionId: 'session-1', sites: new Set(['https://club.example']), tabs: new Set([7]) };

function setup(
  cast: (pollId: string, answerId: string) => Promise<void> = () => Promise.resolve(),
  now: () => number = Date.now,
) {
  holding.sessionId = 'session-1';
  holding.sites = new Set(['https://club.example']);
  holding.tabs = new Set([7]);
  const windows = { opened: [] as string[], closed: [] as number[] };
  const casts: string[] = [];
  const proposals = new VoteProposals({
    windows: {
      open: (url) => {
        windows.opened.push(url);
        return Promise.resolve(windows.opened.length);
      },
      close: (windowId) => {
        windows.closed.push(windowId);
        return Promise.resolve();
      },
    },
    pageUrl: (id) => `confirm.html?proposal=${id}`,
    cast: (id, answerId) => {
      casts.push(`${id} ${answerId}`);
      return cast(id, answerId);
    },
    expiresAfterMs: 60_000,
    stillHolds: (held) =>
      Promise.resolve(
        held.sessionId === holding.sessionId && holding.sites.has(held.site) && holding.tabs.has(held.tabId),
      ),
    now,
  });
  const idOf = (url: string | undefined): string =>
    new URLSearchParams(url?.split('?')[1]).get('proposal') ?? '';
  return { proposals, windows, casts, idOf };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('vote proposals', () => {
  it('casts exactly the answer the fan confirmed, once, and closes the window', async () => {
    const { proposals, windows, casts, idOf } = setup();
    const proposed = proposals.propose(pollId, proposal, binding);
    await flush();
    const id = idOf(windows.opened[0]);
    expect(proposals.details(id)).toEqual(proposal);
    await expect(proposals.decide(id, answerB)).resolves.toEqual({ answerId: answerB });
    await expect(proposed).resolves.toBe(answerB);
    expect(casts).toEqual([`${pollId} ${answerB}`]);
    expect(windows.closed).toEqual([1]);
    await expect(proposals.decide(id, answerB)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(casts).toHaveLength(1);
  });

  it('sends nothing when the fan cancels or closes the window', async () => {
    const { proposals, windows, casts, idOf } = setup();
    const cancelled = proposals.propose(pollId, proposal, binding);
    await flush();
    await proposals.decide(idOf(windows.opened[0]), null);
    await expect(cancelled).rejects.toMatchObject({ code: 'vote_cancelled' });
    const closed = proposals.propose(pollId, proposal, binding);
    await flush();
    proposals.windowClosed(2);
    await expect(closed).rejects.toMatchObject({ code: 'vote_cancelled' });
    expect(casts).toEqual([]);
  });

  it('refuses an answer that is not the poll’s, and a second proposal while one waits', async () => {
    const { proposals, windows, casts, idOf } = setup();
    const first = proposals.propose(pollId, proposal, binding);
    await flush();
    await expect(proposals.propose(pollId, proposal, binding)).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(windows.opened).toHaveLength(1);
    const id = idOf(windows.opened[0]);
    await expect(proposals.decide(id, '41111111-2222-4333-8444-555555555555')).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(casts).toEqual([]);
    await proposals.decide(id, null);
    await expect(first).rejects.toMatchObject({ code: 'vote_cancelled' });
  });

  it('passes the platform’s refusal to the page and the window, which stays open to say so', async () => {
    const refusal = Object.assign(new Error('not a holder'), { code: 'refused' });
    const { proposals, windows, idOf } = setup(() => Promise.reject(refusal));
    const proposed = proposals.propose(pollId, proposal, binding);
    await flush();
    await expect(proposals.decide(idOf(windows.opened[0]), answerA)).rejects.toBe(refusal);
    await expect(proposed).rejects.toBe(refusal);
    expect(windows.closed).toEqual([]);
  });

  it.each([
    [
      'sign-out or another account',
      (p: VoteProposals) => {
        p.endAll();
      },
    ],
    [
      'the site disconnected',
      (p: VoteProposals) => {
        p.endForSite('https://club.example');
      },
    ],
    [
      'every site forgotten',
      (p: VoteProposals) => {
        p.endForSite(undefined);
      },
    ],
    [
      'the tab closed or navigated',
      (p: VoteProposals) => {
        p.endForTab(7);
      },
    ],
  ])('ends at once when %s: window closed, page told vote_cancelled, nothing cast', async (_, end) => {
    const { proposals, windows, casts, idOf } = setup();
    const proposed = proposals.propose(pollId, proposal, binding);
    await flush();
    const id = idOf(windows.opened[0]);
    end(proposals);
    await expect(proposed).rejects.toMatchObject({ code: 'vote_cancelled' });
    expect(windows.closed).toEqual([1]);
    await expect(proposals.decide(id, answerA)).rejects.toMatchObject({ code: 'invalid_request' });
    expect(casts).toEqual([]);
  });

  it('leaves other sites’ and tabs’ proposals alone', async () => {
    const { proposals, windows } = setup();
    const proposed = proposals.propose(pollId, proposal, binding);
    await flush();
    proposals.endForSite('https://other.example');
    proposals.endForTab(8);
    expect(windows.closed).toEqual([]);
    proposals.endAll();
    await expect(proposed).rejects.toMatchObject({ code: 'vote_cancelled' });
  });

  it.each([
    ['the session changed', () => (holding.sessionId = 'session-2')],
    [
      'the site is no longer heard',
      () => {
        holding.sites.clear();
      },
    ],
    [
      'the tab no longer shows the site',
      () => {
        holding.tabs.clear();
      },
    ],
  ])('decide refuses when %s, even if no event ended the proposal', async (_, change) => {
    const { proposals, windows, casts, idOf } = setup();
    const proposed = proposals.propose(pollId, proposal, binding);
    await flush();
    change();
    await expect(proposals.decide(idOf(windows.opened[0]), answerA)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(proposed).rejects.toMatchObject({ code: 'vote_cancelled' });
    expect(casts).toEqual([]);
    expect(windows.closed).toEqual([1]);
  });

  it('ends when the poll closes, and decide refuses after the close', async () => {
    let now = 1_000_000;
    const { proposals, windows, casts, idOf } = setup(undefined, () => now);
    const closing = proposals.propose(pollId, proposal, { ...binding, closesAt: now + 30 });
    await expect(closing).rejects.toMatchObject({ code: 'vote_cancelled' });
    expect(windows.closed).toEqual([1]);
    const late = proposals.propose(pollId, proposal, { ...binding, closesAt: now + 60_000 });
    await flush();
    now += 60_000;
    await expect(proposals.decide(idOf(windows.opened[1]), answerA)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await expect(late).rejects.toMatchObject({ code: 'vote_cancelled' });
    expect(casts).toEqual([]);
  });
});
