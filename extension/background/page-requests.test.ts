import { describe, expect, it } from 'vitest';
import { bridgeProtocolVersion, type BridgeRequest } from '../../src/contracts/bridge-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { answerFixture, fixtureTimes, pollFixture } from '../../src/polls/poll-fixture.ts';
import { FakeStorageArea } from '../testing/fake-browser.ts';
import { Budgets } from './budgets.ts';
import { pageBudgetRules, pageRequestHandler, type PageRequestDependencies } from './page-requests.ts';
import type { SenderInfo } from './sender.ts';

const site = 'https://club.example';
const pollId = '0b7a3c1e-4d5f-4a6b-8c7d-9e0f1a2b3c4d';
const answerA = '21111111-2222-4333-8444-555555555555';
const answerB = '31111111-2222-4333-8444-555555555555';
const inTab = (tabId: number, frameOrigin = site, topOrigin: string | undefined = site): SenderInfo => ({
  kind: 'content-script',
  frameOrigin,
  topOrigin,
  tabId,
});

function openPoll(overrides: Partial<Poll> = {}): Poll {
  return pollFixture({
    id: pollId,
    isBound: true,
    tokenLimit: 500,
    answers: [answerFixture({ id: answerA, answer: 'Ada' }), answerFixture({ id: answerB, answer: 'Bea' })],
    ...overrides,
  });
}

const club = '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61'; // the fixture poll's partner
const otherClub = '7d9e1f20-3a4b-4c5d-8e6f-7a8b9c0d1e22';

/** The handler over fakes that record every platform read, proposal, sign-in and count. */
function setup(
  options: {
    signedIn?: boolean;
    poll?: Poll;
    confirm?: (proposed: string) => string;
    /** What the site displayed when connected: its clubs, or poll ids still to resolve. */
    shown?: { clubs?: string[]; pollIds?: string[] };
    permitted?: boolean;
  } = {},
) {
  const log: string[] = [];
  const bindings: unknown[] = [];
  let now = fixtureTimes.whileOpen;
  let shown = { clubs: options.shown?.clubs ?? [club], shownPollIds: options.shown?.pollIds ?? [] };
  const deps: PageRequestDependencies = {
    session: {
      status: () =>
        Promise.resolve(
          (options.signedIn ?? true) ? { signedIn: true, sessionId: 'session-1' } : { signedIn: false },
        ),
    },
    connections: {
      isHeard: (origin) => Promise.resolve(origin === site && options.permitted !== false),
      site: (origin) =>
        Promise.resolve(
          origin === site
            ? { origin, connectedAt: 1, activity: { reads: 0, proposals: 0, votes: 0 }, ...shown }
            : undefined,
        ),
      addClubs: (origin, clubs) => {
        log.push(`resolved ${clubs.join(',')}`);
        shown = { clubs: [...shown.clubs, ...clubs], shownPollIds: [] };
        return Promise.resolve([
          { origin, connectedAt: 1, activity: { reads: 0, proposals: 0, votes: 0 }, ...shown },
        ]);
      },
      record: (origin, what) => {
        log.push(`record ${what}`);
        return Promise.resolve();
      },
    },
    budgets: new Budgets(pageBudgetRules, new FakeStorageArea(), () => now),
    proposals: {
      propose: (id, proposal, binding) => {
        log.push(`propose ${proposal.proposedAnswerId}`);
        bindings.push(binding);
        return Promise.resolve(
          options.confirm ? options.confirm(proposal.proposedAnswerId) : proposal.proposedAnswerId,
        );
      },
    },
    signIn: () => {
      log.push('sign-in window');
      return Promise.resolve();
    },
    readUserPoll: () => {
      log.push('read');
      return Promise.resolve(options.poll ?? openPoll());
    },
    readUserPolls: (ids) => {
      log.push(`read ${ids.length}`);
      return Promise.resolve(ids.map((id) => openPoll({ id, partnerId: otherClub })));
    },
    now: () => now,
  };
  const handle = pageRequestHandler(deps);
  const ask = (request: BridgeRequest, sender: SenderInfo = inTab(1), userActivated = false) =>
    handle({ request, userActivated }, sender);
  return { ask, log, bindings, advance: (ms: number) => (now += ms) };
}

describe('page requests in the background', () => {
  it('hears only a frame that is the tab’s top-level page on a connected site (no answer even to hello)', async () => {
    const { ask } = setup();
    await expect(ask({ type: 'hello' })).resolves.toEqual({ type: 'hello', version: bridgeProtocolVersion });
    for (const sender of [
      inTab(1, site, 'https://decoy.example'), // a connected page framed by another site
      { kind: 'content-script', frameOrigin: site, topOrigin: undefined, tabId: 1 } as const, // top page unknown
      inTab(1, 'https://ads.example', site), // a third-party frame inside the connected page
      inTab(1, 'https://other.example', 'https://other.example'), // a site the fan never connected
      { kind: 'extension-page' } as const,
    ]) {
      await expect(ask({ type: 'hello' }, sender)).rejects.toMatchObject({ code: 'forbidden' });
    }
  });

  it('does not hear a connected site whose permission the fan revoked in the browser', async () => {
    const { ask, log } = setup({ permitted: false });
    await expect(ask({ type: 'hello' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(ask({ type: 'poll-view', pollId })).rejects.toMatchObject({ code: 'forbidden' });
    expect(log).toEqual([]);
  });

  it('reads the fan’s vote, and proposes one, only in polls of the clubs the site showed when connected', async () => {
    const { ask, log } = setup({ poll: openPoll({ partnerId: otherClub, userVote: true }) });
    const refusal = { code: 'refused', reason: undefined };
    await expect(ask({ type: 'poll-view', pollId })).rejects.toMatchObject(refusal);
    // The same refusal whether or not the fan voted there: nothing about the vote is used first.
    await expect(ask({ type: 'vote', pollId, answerId: answerA }, inTab(1), true)).rejects.toMatchObject(
      refusal,
    );
    expect(log).toEqual(['read', 'read']);
  });

  it('resolves the polls a site showed at connect time to their clubs once, with the fan’s token', async () => {
    const shownPoll = '91111111-2222-4333-8444-555555555555';
    const { ask, log } = setup({
      shown: { clubs: [], pollIds: [shownPoll] },
      poll: openPoll({ partnerId: otherClub }),
    });
    await expect(ask({ type: 'poll-view', pollId })).resolves.toMatchObject({ type: 'poll-view' });
    await expect(ask({ type: 'poll-view', pollId })).resolves.toMatchObject({ type: 'poll-view' });
    expect(log.filter((entry) => !entry.startsWith('record'))).toEqual([
      'read',
      'read 1',
      `resolved ${otherClub}`,
      'read',
    ]);
  });

  it('binds a proposal to the fan’s session, the site and the tab, until the poll closes', async () => {
    const { ask, bindings } = setup();
    await ask({ type: 'vote', pollId, answerId: answerA }, inTab(4), true);
    expect(bindings).toEqual([
      { sessionId: 'session-1', site, tabId: 4, closesAt: Date.parse(openPoll().closeAt!) },
    ]);
  });

  it('turns a vote into a proposal only with the fan’s fresh click, and answers with the confirmed answer', async () => {
    const { ask, log } = setup({ confirm: () => answerB });
    const vote = { type: 'vote', pollId, answerId: answerA } as const;
    await expect(ask(vote, inTab(1), false)).rejects.toMatchObject({ code: 'user_activation_required' });
    expect(log).toEqual([]);
    await expect(ask(vote, inTab(1), true)).resolves.toEqual({
      type: 'vote',
      accepted: true,
      answerId: answerB,
    });
    expect(log).toEqual(['read', 'record proposals', `propose ${answerA}`, 'record votes']);
  });

  it('refuses at once, with no window, what the platform would refuse', async () => {
    const cases: [Poll, string, string][] = [
      [openPoll({ userVote: true }), answerA, 'already_voted'],
      [openPoll(), '41111111-2222-4333-8444-555555555555', 'unknown_answer'],
      [openPoll({ status: 'cancelled' }), answerA, 'poll_not_open'],
    ];
    for (const [poll, answerId, reason] of cases) {
      const { ask, log } = setup({ poll });
      await expect(ask({ type: 'vote', pollId, answerId }, inTab(1), true)).rejects.toMatchObject({
        code: 'refused',
        reason,
      });
      expect(log.filter((entry) => entry.startsWith('propose'))).toEqual([]);
    }
  });

  it('opens sign-in only with a fresh click, and budgets windows per tab and per site', async () => {
    const { ask, log } = setup({ signedIn: false });
    const signIn = { type: 'sign-in', tracking: {} } as const;
    const perTab: number = pageBudgetRules['windows per tab'].max;
    const perSite: number = pageBudgetRules['windows per site'].max;
    await expect(ask(signIn, inTab(1), false)).rejects.toMatchObject({ code: 'user_activation_required' });
    for (let n = 0; n < perTab; n += 1) await ask(signIn, inTab(1), true);
    await expect(ask(signIn, inTab(1), true)).rejects.toMatchObject({ code: 'rate_limited' });
    // Other tabs of the same site share the site's budget.
    for (let n = perTab; n < perSite; n += 1) await ask(signIn, inTab(100 + n), true);
    await expect(ask(signIn, inTab(3), true)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(log.filter((entry) => entry === 'sign-in window')).toHaveLength(perSite);
  });

  it('budgets the fan’s platform calls per tab, whatever the frame', async () => {
    const { ask, log, advance } = setup();
    const read = { type: 'poll-view', pollId } as const;
    const budget = pageBudgetRules['platform calls per tab'].max;
    const results = await Promise.allSettled(Array.from({ length: budget + 10 }, () => ask(read, inTab(1))));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(budget);
    expect(log.filter((entry) => entry === 'read')).toHaveLength(budget);
    await expect(ask(read, inTab(2))).resolves.toMatchObject({ type: 'poll-view' });
    advance(60_000);
    await expect(ask(read, inTab(1))).resolves.toMatchObject({ type: 'poll-view' });
  });

  it('tells a signed-out fan’s page nothing but that', async () => {
    const { ask, log } = setup({ signedIn: false });
    await expect(ask({ type: 'status' })).resolves.toEqual({ type: 'status', status: { signedIn: false } });
    await expect(ask({ type: 'poll-view', pollId })).rejects.toMatchObject({ code: 'signed_out' });
    await expect(ask({ type: 'vote', pollId, answerId: answerA }, inTab(1), true)).rejects.toMatchObject({
      code: 'signed_out',
    });
    expect(log).toEqual([]);
  });
});
