import { afterEach, describe, expect, it, vi } from 'vitest';
import '../define-elements.ts';
import { defineElements } from '../define-elements.ts';
import { settle } from '../test-support/settle.ts';
import { PlatformError } from '../../src/platform/errors.ts';
import { fakeChannel, fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { answerFixture } from '../../src/polls/poll-fixture.ts';
import type { FanPollView } from '../voting/vote-channel.ts';
import type { FanPoll } from './fan-poll.ts';
import { WidgetError } from '../voting/widget-error.ts';
import { proxyChannel } from '../voting/proxy-channel.ts';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { cardDetails } from './details-part.ts';

await defineElements();
// The details chunk (the fan's vote and its outcome, a failed read, the account line) arrives before the tests, as it
// does in a page long before a fan acts; every phase's first paint is in the element code without it.
await cardDetails.load();

async function mount(
  store: ReturnType<typeof fakeStore>,
  options: {
    channel?: ReturnType<typeof fakeChannel>['channel'];
    attributes?: Record<string, string>;
    children?: string;
  } = {},
): Promise<FanPoll> {
  const card = document.createElement('fan-poll');
  for (const [name, value] of Object.entries({ 'poll-id': 'poll-1', eager: '', ...options.attributes })) {
    card.setAttribute(name, value);
  }
  if (options.children) card.innerHTML = options.children;
  card.store = store;
  card.channel = options.channel ?? fakeChannel().channel;
  document.body.append(card);
  await settle(card);
  return card;
}

const text = (card: FanPoll): string => card.shadowRoot!.textContent.replace(/\s+/g, ' ');
const button = (card: FanPoll): HTMLButtonElement | null => card.shadowRoot!.querySelector('button');
const radios = (card: FanPoll): HTMLInputElement[] => [...card.shadowRoot!.querySelectorAll('input')];
const ready = (poll: ReturnType<typeof pollIn>) => ({
  status: 'ready' as const,
  poll,
  fetchedAt: Date.now(),
});

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('<fan-poll> states', () => {
  it('reserves space with a skeleton while loading', async () => {
    const card = await mount(fakeStore());
    expect(card.shadowRoot!.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(card.shadowRoot!.querySelectorAll('.skeleton').length).toBeGreaterThan(3);
  });

  it('keeps the partner fallback markup until data arrives', async () => {
    const store = fakeStore();
    const card = await mount(store, { children: '<a href="/poll">Vote on our site</a>' });
    expect(card.shadowRoot!.querySelector('slot')).not.toBeNull();
    store.emit(ready(pollIn('open')));
    await settle(card);
    expect(card.shadowRoot!.querySelector('slot')).toBeNull();
    expect(text(card)).toContain('Who was the player of the match?');
  });

  const phaseBadge = (card: FanPoll) => card.shadowRoot!.querySelector('[part="phase"]')?.textContent;
  const outcome = (card: FanPoll) => card.shadowRoot!.querySelector('[part="outcome"]')?.textContent;
  const bars = (card: FanPoll) => card.shadowRoot!.querySelectorAll('[part~="answer"] progress').length;
  const answerRows = (card: FanPoll) => [
    ...card.shadowRoot!.querySelectorAll<HTMLElement>('[part~="answer"]'),
  ];

  it('lists an upcoming poll’s answers with no radio, no bar and no vote action, and says when it opens', async () => {
    const card = await mount(fakeStore(ready(pollIn('upcoming'))));
    expect(phaseBadge(card)).toMatch(/^Upcoming · Opens in \dh \d+m$/);
    expect(answerRows(card).map((row) => row.textContent.trim())).toEqual(['Ada', 'Bea']);
    expect(radios(card)).toEqual([]);
    expect(bars(card)).toBe(0);
    expect(text(card)).not.toMatch(/%|votes|Turnout/);
    expect(button(card)).toBeNull();
  });

  it('shows an open poll’s live shares to every visitor by default, with no leader set apart', async () => {
    const card = await mount(fakeStore(ready(pollIn('open'))));
    await vi.waitFor(() => {
      expect(text(card)).toMatch(/Ada 75% Bea 25%/);
    });
    expect(card.shadowRoot!.querySelector('[data-leading]')).toBeNull();
    expect(card.shadowRoot!.querySelector('[data-chosen]')).toBeNull();
    expect(text(card)).toContain('Weighted by fan tokens');
    expect(button(card)?.textContent.trim()).toBe('Sign in to vote');
    // Live shares are not announced: the polite region stays empty.
    expect(card.shadowRoot!.querySelector('[role="status"]')?.textContent.trim()).toBe('');
  });

  it.each(['after-vote', 'after-close'])(
    'keeps an open poll’s shares for after the vote with results="%s", and shows them once it closes',
    async (results) => {
      const store = fakeStore(ready(pollIn('open')));
      const card = await mount(store, { attributes: { results } });
      await settle(card);
      expect(text(card)).not.toMatch(/75%|25%/);
      expect(text(card)).not.toContain('Weighted by fan tokens');
      store.emit(ready(pollIn('closed')));
      await vi.waitFor(() => {
        expect(text(card)).toContain('75%');
      });
    },
  );

  it('shows an open poll as large radio targets, says who may vote, and keeps the results for after the vote', async () => {
    const card = await mount(fakeStore(ready(pollIn('open'))), { attributes: { results: 'after-vote' } });
    expect(phaseBadge(card)).toMatch(/^Open · Closes in/);
    expect(card.shadowRoot!.querySelector('fieldset legend')?.textContent).toBe(
      'Who was the player of the match?',
    );
    expect(radios(card).map((radio) => radio.disabled)).toEqual([false, false]);
    // Before the fan's vote: no shares, no leader set apart.
    expect(text(card)).not.toMatch(/75%|25%/);
    expect(card.shadowRoot!.querySelector('[data-leading]')).toBeNull();
    expect(button(card)?.textContent.trim()).toBe('Sign in to vote');
    expect(text(card)).toContain('For Riverside FC token holders');
  });

  it('names no leader on a closed poll whose results are still to come, and says when they come', async () => {
    const card = await mount(fakeStore(ready(pollIn('closed'))));
    expect(phaseBadge(card)).toBe('Closed');
    expect(outcome(card)).toMatch(/^Results in \dh \d+m$/);
    expect(text(card)).toContain('75%');
    expect(card.shadowRoot!.querySelector('[data-leading]')).toBeNull();
    expect(text(card)).toContain('Voting is closed');
    expect(radios(card)).toEqual([]);
    expect(button(card)).toBeNull();
  });

  it('names the winner of disclosed results and sets its row apart', async () => {
    const card = await mount(fakeStore(ready(pollIn('disclosed'))));
    expect(phaseBadge(card)).toBe('Results');
    expect(outcome(card)).toBe('Winner: Ada');
    expect(card.shadowRoot!.querySelector('[data-leading]')?.textContent).toContain('Ada');
    expect(bars(card)).toBe(2);
    expect(button(card)).toBeNull();
  });

  it.each([
    [[50, 50], 'Tie: Ada and Bea'],
    [[0, 0], 'No votes were cast.'],
  ])('names a tie as a tie, and no votes as none (%j)', async (tokens, said) => {
    const poll = pollIn('disclosed');
    const answers = poll.answers.map((answer, index) => ({
      ...answer,
      totalVoteTokensUsed: tokens[index] ?? 0,
    }));
    const card = await mount(fakeStore(ready({ ...poll, answers })));
    expect(outcome(card)).toBe(said);
    expect(card.shadowRoot!.querySelector('[data-leading]')).toBeNull();
  });

  it('shows a cancelled poll as not running: no radio, no bar, no vote, and says so', async () => {
    const card = await mount(fakeStore(ready(pollIn('open', { status: 'cancelled' }))));
    expect(phaseBadge(card)).toBe('Cancelled');
    expect(outcome(card)).toBe('This poll was cancelled: it takes no votes.');
    expect(card.shadowRoot!.querySelector('[part="card"]')?.getAttribute('data-phase')).toBe('cancelled');
    expect(radios(card)).toEqual([]);
    expect(bars(card)).toBe(0);
    expect(button(card)).toBeNull();
  });

  it('shows an unknown status read-only, as sent', async () => {
    const card = await mount(fakeStore(ready(pollIn('open', { status: 'suspended' }))));
    expect(phaseBadge(card)).toBe('Not open for votes (suspended)');
    expect(button(card)).toBeNull();
    expect(radios(card)).toEqual([]);
  });

  it('goes from upcoming to open to closed to disclosed as the poll changes, and says each change', async () => {
    const store = fakeStore(ready(pollIn('upcoming')));
    const card = await mount(store);
    for (const [phase, badge] of [
      ['open', /^Open/],
      ['closed', /^Closed$/],
      ['disclosed', /^Results$/],
    ] as const) {
      store.emit(ready(pollIn(phase)));
      await settle(card);
      expect(phaseBadge(card)).toMatch(badge);
      expect(card.shadowRoot!.querySelector('[role="status"]')?.textContent).toContain(
        `Who was the player of the match?: ${badge.source.replace(/[\^$]/g, '')}`,
      );
    }
  });

  it('collapses a long poll to its first answers with "Show all N", keeps the fan’s pick, and shows all on request', async () => {
    const answers = Array.from({ length: 12 }, (_, index) =>
      answerFixture({ id: `a${index + 1}`, answer: `Answer ${index + 1}`, totalVoteTokensUsed: index }),
    );
    const { channel } = fakeChannel({ signedIn: true });
    const card = await mount(fakeStore(ready(pollIn('open', { answers }))), {
      channel,
      attributes: { results: 'after-vote' },
    });
    const shown = () =>
      answerRows(card)
        .filter((row) => getComputedStyle(row).display !== 'none')
        .map((row) => row.textContent.trim());
    expect(card.shadowRoot!.querySelector('fieldset')?.hasAttribute('data-collapsed')).toBe(true);
    expect(shown()).toEqual(['Answer 1', 'Answer 2', 'Answer 3', 'Answer 4']);
    const showAll = card.shadowRoot!.querySelector<HTMLButtonElement>('[part="show-all"]')!;
    expect(showAll.textContent.trim()).toBe('Show all 12 answers');
    // The vote button is right below, whatever the poll's length.
    expect(card.shadowRoot!.querySelector('[part="button"]')?.textContent.trim()).toBe('Vote');
    showAll.click();
    await settle(card);
    expect(shown()).toHaveLength(12);
    expect(card.shadowRoot!.querySelector('[part="show-all"]')).toBeNull();
    expect(card.shadowRoot!.activeElement).toBe(radios(card)[4]);

    // A fan who voted for a hidden answer sees it among the first ones, marked.
    const voted = await mount(fakeStore(ready(pollIn('open', { answers }))), {
      channel: fakeChannel({
        signedIn: true,
        fanView: { userVote: true, answers: [{ id: 'a10', voteStatus: 'accepted' }] },
      }).channel,
    });
    const rows = answerRows(voted).filter((row) => getComputedStyle(row).display !== 'none');
    expect(rows.map((row) => row.textContent.trim().split(/\s/)[1])).toEqual(['1', '2', '3', '4', '10']);
  });

  it('says quorum and binding in plain words, with a legend for the quorum bar', async () => {
    const card = await mount(
      fakeStore(ready(pollIn('open', { isBound: true, statistics: { uniqueVoteCount: 7 } }))),
    );
    expect(text(card)).toContain('7 votes');
    expect(text(card)).toContain('Turnout 5%: 20% needed for the result to count');
    expect(text(card)).toContain('The club will follow the result.');
    expect(card.shadowRoot!.querySelector('[part="quorum"] .legend')?.textContent).toContain(
      'The bar fills up to the turnout needed.',
    );
    const reached = await mount(
      fakeStore(
        ready(pollIn('open', { isBound: false, isQuorumReached: true, currentQuorumPercentage: '0.3' })),
      ),
    );
    expect(text(reached)).toContain('Turnout reached the 20% needed');
    expect(text(reached)).toContain('The result is advice for the club.');
  });

  it.each([
    ['a cap', { tokenLimit: 1000 }, 'Weighted by fan tokens: 36,715 so far, at most 1,000 for one fan'],
    ['no cap (0)', { tokenLimit: 0 }, 'Weighted by fan tokens: 36,715 so far'],
    // The platform may leave it out: the parser keeps what was sent.
    ['no cap (missing)', { tokenLimit: undefined }, 'Weighted by fan tokens: 36,715 so far'],
  ])('says how tokens weigh the results, with %s', async (_, overrides, said) => {
    const card = await mount(fakeStore(ready(pollIn('closed', { usedTokenCount: 36_715, ...overrides }))));
    const stats = card.shadowRoot!.querySelector('[part="stats"]')!.textContent.replace(/\s+/g, ' ');
    expect(stats).toContain(said);
    if (overrides.tokenLimit !== 1000) expect(stats).not.toMatch(/at most|of 0/);
  });

  it.each([
    ['en', 1, '1 vote'],
    ['en', 0, '0 votes'],
    ['fr', 0, '0 vote'],
    ['de', 1, '1 Stimme'],
  ])('says the number of votes in %s with its plural rules (%i)', async (lang, count, words) => {
    const card = await mount(fakeStore(ready(pollIn('open', { statistics: { uniqueVoteCount: count } }))), {
      attributes: { lang },
    });
    await vi.waitFor(() => {
      expect(card.shadowRoot!.querySelector('[part="stats"]')?.textContent.trim().split('\n')[0]).toBe(words);
    });
  });

  it('says the per-fan cap in French', async () => {
    const card = await mount(
      fakeStore(ready(pollIn('closed', { usedTokenCount: 36_715, tokenLimit: 1000 }))),
      {
        attributes: { lang: 'fr' },
      },
    );
    await vi.waitFor(() => {
      expect(text(card)).toMatch(/36\s715 jusqu’ici, au plus 1\s000 pour un supporter/);
    });
  });

  it('shows an error with a retry that asks the store again, and fires an error event', async () => {
    const store = fakeStore();
    const errors: string[] = [];
    document.addEventListener('fan-poll-error', (event) => errors.push(event.detail.code), { once: true });
    const card = await mount(store);
    store.emit({ status: 'error', error: new PlatformError('network', 'offline') });
    await settle(card);
    expect(card.shadowRoot!.querySelector('[role="alert"]')?.textContent).toContain('could not be loaded');
    button(card)!.click();
    expect(store.refreshes).toBe(1);
    expect(errors).toEqual(['load-failed']);
  });

  it('says an unknown poll does not exist, and offers no retry that could never work', async () => {
    const store = fakeStore();
    const card = await mount(store);
    store.emit({
      status: 'error',
      error: new PlatformError('not_found', 'The platform did not return this poll.'),
    });
    await settle(card);
    expect(card.shadowRoot!.querySelector('[role="alert"]')?.textContent).toContain('does not exist');
    expect(button(card)).toBeNull();
  });

  it('warns once in the console when the partner left out the poll id or the proxy', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const noId = document.createElement('fan-poll');
    noId.store = fakeStore();
    document.body.append(noId);
    await settle(noId);
    noId.theme = 'dark';
    await settle(noId);
    const noProxy = document.createElement('fan-poll');
    noProxy.setAttribute('poll-id', 'poll-1');
    document.body.append(noProxy);
    await settle(noProxy);
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining('needs poll-id'),
      expect.stringContaining('needs a proxy'),
    ]);
    await mount(fakeStore());
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('renders platform strings as text and drops unsafe logo URLs', async () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const card = await mount(
      fakeStore(
        ready(
          pollIn('open', {
            question: hostile,
            partnerImages: [
              { url: 'javascript:alert(1)', type: 'png' },
              { url: 'http://evil.example/logo.png' },
            ],
          }),
        ),
      ),
    );
    expect(card.shadowRoot!.querySelector('legend')?.textContent).toBe(hostile);
    expect(card.shadowRoot!.querySelector('legend img')).toBeNull();
    expect(card.shadowRoot!.querySelector('img')).toBeNull();
  });

  it('shows an https logo', async () => {
    const card = await mount(
      fakeStore(
        ready(pollIn('open', { partnerImages: [{ url: 'https://cdn.example/logo.png', type: 'png' }] })),
      ),
    );
    expect(card.shadowRoot!.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/logo.png');
  });

  it('speaks French with lang="fr"', async () => {
    const card = await mount(fakeStore(ready(pollIn('open'))), { attributes: { lang: 'fr' } });
    // French is a chunk of its own: the card waits for it (skeleton), then speaks it.
    await import('../i18n/fr.ts');
    await settle(card);
    expect(button(card)?.textContent.trim()).toBe('Se connecter pour voter');
    expect(text(card)).toMatch(/Ouvert · Ferme dans/);
  });

  it.each([
    ['es', 'Inicia sesión para votar', /Abierta · Cierra en/],
    ['pt-BR', 'Inicie sessão para votar', /Aberta · Fecha em/],
    ['de', 'Zum Abstimmen anmelden', /Offen · Endet in/],
    ['it', 'Accedi per votare', /Aperto · Chiude tra/],
  ])('speaks %s, loaded as a chunk of its own on first use', async (lang, signIn, phase) => {
    const card = await mount(fakeStore(ready(pollIn('open'))), { attributes: { lang } });
    await vi.waitFor(() => {
      expect(button(card)?.textContent.trim()).toBe(signIn);
    });
    expect(text(card)).toMatch(phase);
  });

  it('speaks French in the voting words too (they come with the French chunk)', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      vote: () => Promise.reject(new WidgetError('already-voted', 'refused')),
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel, attributes: { lang: 'fr' } });
    await import('../i18n/fr.ts');
    await settle(card);
    expect(button(card)?.textContent.trim()).toBe('Voter');
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    await settle(card);
    expect(card.shadowRoot!.querySelector('[part="status"]')?.textContent).toBe(
      'Vous avez déjà voté dans ce sondage.',
    );
  });
});

describe('<fan-poll> events and voting', () => {
  const tracking = {
    referrer: 'club-site',
    campaign: 'spring',
    param1: 'website',
    param2: 'match',
    param3: 'banner',
  };

  it('fires ready once with the poll id and the tracking parameters', async () => {
    const readies: unknown[] = [];
    document.addEventListener('fan-poll-ready', (event) => readies.push(event.detail));
    const store = fakeStore(ready(pollIn('open')));
    const card = await mount(store, { attributes: { ...tracking, utm_source: 'x' } });
    store.emit(ready(pollIn('open', { usedTokenCount: 3 })));
    await settle(card);
    expect(readies).toEqual([{ pollId: 'poll-1', tracking, phase: 'open' }]);
  });

  it('signs in, then votes once however often the button is clicked', async () => {
    const { channel, calls } = fakeChannel();
    const events: [string, unknown][] = [];
    for (const name of ['fan-poll-sign-in', 'fan-poll-vote', 'fan-poll-voted'] as const) {
      document.addEventListener(name, (event) => events.push([name, event.detail]));
    }
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel, attributes: tracking });
    button(card)!.click();
    await settle(card);
    expect(calls.signIn).toBe(1);
    expect(button(card)?.textContent.trim()).toBe('Vote');
    radios(card)[1]!.click();
    await settle(card);
    button(card)!.click();
    button(card)!.click();
    button(card)!.dispatchEvent(new MouseEvent('click'));
    await settle(card);
    expect(calls.vote).toEqual(['a2']);
    expect(text(card)).toContain('You voted for Bea');
    expect(events).toEqual([
      ['fan-poll-sign-in', { pollId: 'poll-1', tracking, stage: 'started', via: 'popup' }],
      ['fan-poll-sign-in', { pollId: 'poll-1', tracking, stage: 'signed-in', via: 'popup' }],
      ['fan-poll-vote', { pollId: 'poll-1', tracking, answerId: 'a2' }],
      ['fan-poll-voted', { pollId: 'poll-1', tracking, answerId: 'a2' }],
    ]);
  });

  it('marks the fan’s vote unmistakably, reveals the results with it, and keeps focus on the card', async () => {
    const { channel } = fakeChannel({ signedIn: true });
    const card = await mount(fakeStore(ready(pollIn('open'))), {
      channel,
      attributes: { results: 'after-vote' },
    });
    expect(text(card)).not.toContain('75%');
    radios(card)[1]!.click();
    await settle(card);
    button(card)!.focus();
    button(card)!.click();
    await settle(card);
    const chosen = card.shadowRoot!.querySelector<HTMLElement>('[part~="answer"][data-chosen]');
    expect(chosen?.textContent).toContain('Bea');
    expect(chosen?.textContent).toContain('Your vote');
    expect(radios(card)[1]!.checked).toBe(true);
    expect(card.shadowRoot!.querySelectorAll('[data-chosen]')).toHaveLength(1);
    // The results come with the vote: each answer's share, and no other answer set apart.
    expect(text(card)).toContain('75%');
    expect(text(card)).toContain('25%');
    expect(card.shadowRoot!.querySelector('[data-leading]')).toBeNull();
    // The button went; focus is on the line that says the vote, inside the card, not on the page's body.
    expect(button(card)).toBeNull();
    expect(card.shadowRoot!.activeElement?.textContent).toContain('You voted for Bea');
  });

  it('marks the fan’s earlier vote after a reload', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a1', voteStatus: 'accepted' }] },
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    expect(card.shadowRoot!.querySelector('[data-chosen]')?.textContent).toContain('Ada');
    expect(radios(card)[0]!.checked).toBe(true);
    expect(text(card)).toContain('You voted for Ada (confirmed)');
    expect(text(card)).toContain('75%');
  });

  it('tells a fan who may not vote what they can do next', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      vote: () => Promise.reject(new WidgetError('not-holder', 'refused')),
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    await settle(card);
    expect(text(card)).toContain(
      'Only Riverside FC fan token holders can vote. Get the club’s fan tokens in the Socios.com app, or sign in with another account.',
    );
  });

  it('shows "voting" while the vote is on its way', async () => {
    let finish: () => void = () => undefined;
    const { channel } = fakeChannel({
      signedIn: true,
      vote: () => new Promise((resolve) => (finish = resolve)),
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    await settle(card);
    expect(button(card)?.textContent.trim()).toBe('Voting…');
    expect(button(card)?.getAttribute('aria-disabled')).toBe('true');
    finish();
    await settle(card);
    expect(text(card)).toContain('You voted for Ada');
  });

  it('asks for an answer before voting', async () => {
    const { channel, calls } = fakeChannel({ signedIn: true });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    button(card)!.click();
    await settle(card);
    expect(calls.vote).toEqual([]);
    expect(text(card)).toContain('Choose an answer');
  });

  it('offers no vote to a signed-in fan before it knows whether they voted', async () => {
    let answer: (view: FanPollView) => void = () => undefined;
    const { channel, calls } = fakeChannel({ signedIn: true });
    channel.fanView = () => new Promise((resolve) => (answer = resolve));
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    // Neutral: the button is there but inactive, and the answers cannot be picked yet.
    expect(button(card)?.getAttribute('aria-disabled')).toBe('true');
    expect(radios(card).every((radio) => radio.disabled)).toBe(true);
    button(card)!.click();
    await settle(card);
    expect(calls.vote).toEqual([]);
    answer({ userVote: true, answers: [{ id: 'a2', voteStatus: 'accepted' }] });
    await settle(card);
    expect(text(card)).toContain('You voted for Bea (confirmed)');
    expect(button(card)).toBeNull();
  });

  it('shows the fan’s earlier vote and its status', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a1', voteStatus: 'pending' }, { id: 'a2' }] },
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    expect(text(card)).toContain('You voted for Ada (being confirmed)');
    expect(radios(card)[0]!.checked).toBe(true);
  });

  it('shows the fan’s vote on a closed poll when the host gave the card its channel', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a2', voteStatus: 'accepted' }] },
    });
    const card = await mount(fakeStore(ready(pollIn('closed'))), { channel });
    expect(text(card)).toContain('You voted for Bea (confirmed)');
    expect(button(card)).toBeNull();
  });

  it('finds the fan again through a new channel when the host replaces it', async () => {
    const first = fakeChannel({ signedIn: false });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel: first.channel });
    expect(button(card)?.textContent.trim()).toBe('Sign in to vote');
    const second = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a1', voteStatus: 'pending' }] },
    });
    card.channel = second.channel;
    await settle(card);
    expect(text(card)).toContain('You voted for Ada (being confirmed)');
  });

  it('shows a rejected vote', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a2', voteStatus: 'rejected' }] },
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    expect(text(card)).toContain('Your vote was rejected');
  });

  /** A signed-in card whose vote the channel refuses with `code`; returns the card, the calls and the error codes. */
  async function refusedVote(code: WidgetError['code'], fanView?: () => FanPollView) {
    const { channel, calls } = fakeChannel({
      signedIn: true,
      vote: () => Promise.reject(new WidgetError(code, 'refused')),
    });
    let fanViews = 0;
    channel.fanView = () => {
      fanViews += 1;
      return Promise.resolve(fanViews > 1 && fanView ? fanView() : { userVote: false, answers: [] });
    };
    const codes: string[] = [];
    document.addEventListener('fan-poll-error', (event) => codes.push(event.detail.code));
    const store = fakeStore(ready(pollIn('open')));
    const card = await mount(store, { channel });
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    await settle(card);
    return { card, calls, codes, store, fanViews: () => fanViews };
  }

  it('shows "not a holder" when the platform says the fan holds none of the club’s tokens', async () => {
    const { card, calls, codes } = await refusedVote('not-holder');
    expect(text(card)).toContain('Only Riverside FC fan token holders can vote');
    expect(button(card)).toBeNull();
    expect(radios(card).every((radio) => radio.disabled)).toBe(true);
    expect(calls.vote).toEqual(['a1']);
    expect(codes).toEqual(['not-holder']);
  });

  it('shows a second vote’s refusal, then the vote the platform already has', async () => {
    const { card, calls, codes, fanViews } = await refusedVote('already-voted', () => ({
      userVote: true,
      answers: [{ id: 'a2', voteStatus: 'accepted' }],
    }));
    expect(fanViews()).toBe(2);
    expect(text(card)).toContain('You voted for Bea (confirmed)');
    expect(card.shadowRoot!.querySelector('[part="status"]')?.textContent).toBe(
      'You have already voted in this poll.',
    );
    expect(radios(card)[1]!.checked).toBe(true);
    expect(button(card)).toBeNull();
    expect(calls.vote).toEqual(['a1']);
    expect(codes).toEqual(['already-voted']);
  });

  it('shows a poll the platform says is not open as closed, and asks the store for a fresh read', async () => {
    const { card, codes, store } = await refusedVote('poll-closed');
    expect(text(card)).toContain('Voting is closed');
    expect(button(card)).toBeNull();
    expect(store.refreshes).toBe(1);
    expect(codes).toEqual(['poll-closed']);
  });

  it('shows a plain refusal as such, never guessing "not a holder", and lets the fan choose again', async () => {
    const { card, codes, fanViews } = await refusedVote('vote-refused');
    expect(fanViews()).toBe(2);
    expect(text(card)).toContain('The platform did not accept this vote.');
    expect(text(card)).not.toContain('fan token holders');
    expect(button(card)?.textContent.trim()).toBe('Vote');
    expect(codes).toEqual(['vote-refused']);
  });

  /**
   * A signed-in card voting through the real proxy channel, whose vote the proxy answers `vote_uncertain` (it could
   * not learn the outcome) or `proxyCode`; the fan's poll shows no vote before the vote and `afterVote` after it
   * (undefined: its read fails).
   */
  async function uncertainVote(
    afterVote: { userVote: boolean; answers: unknown[] } | undefined,
    proxyCode: 'vote_uncertain' | 'vote_not_sent' = 'vote_uncertain',
  ) {
    const posts: string[] = [];
    const reads: string[] = [];
    const fetchImpl = ((input: string, init: RequestInit = {}) => {
      const path = new URL(input).pathname;
      const answer = (body: unknown, status = 200) => Promise.resolve(Response.json(body, { status }));
      if (init.method === 'POST') {
        posts.push(path);
        return answer(
          { error: { code: proxyCode, message: 'Check the poll.' } },
          proxyCode === 'vote_uncertain' ? 502 : 503,
        );
      }
      if (path === proxyRoutes.session) return answer({ signedIn: true, userId: 'u1' });
      if (posts.length > 0) reads.push(path);
      if (posts.length > 0 && afterVote === undefined)
        return answer({ error: { code: 'upstream_unavailable', message: 'Down.' } }, 502);
      const fanPoll =
        posts.length > 0 ? afterVote : { userVote: false, answers: [{ id: 'a1' }, { id: 'a2' }] };
      return answer({ data: { id: 'poll-1', ...fanPoll } });
    }) as typeof fetch;
    const codes: string[] = [];
    const voted: string[] = [];
    document.addEventListener('fan-poll-error', (event) => codes.push(event.detail.code));
    document.addEventListener('fan-poll-voted', (event) => voted.push(event.detail.answerId));
    const card = await mount(fakeStore(ready(pollIn('open'))), {
      channel: proxyChannel('https://polls.club.example', fetchImpl),
    });
    await vi.waitFor(() => {
      expect(button(card)?.textContent.trim()).toBe('Vote');
    });
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    // The vote's outcome: voted, or an error event.
    await vi.waitFor(() => {
      expect(voted.length + codes.length).toBeGreaterThan(0);
    });
    await settle(card);
    return { card, posts, reads, codes, voted };
  }

  it('tells the fan a vote the proxy never sent was not sent, with no re-read, and lets them vote again', async () => {
    const { card, posts, reads, codes, voted } = await uncertainVote(undefined, 'vote_not_sent');
    expect(card.shadowRoot!.querySelector('[part="status"]')?.textContent).toBe(
      'Your vote could not be sent.',
    );
    expect(button(card)?.textContent.trim()).toBe('Vote');
    expect(posts).toEqual([proxyRoutes.vote('poll-1')]);
    expect(reads.filter((path) => path.includes('poll-1'))).toEqual([]);
    expect(voted).toEqual([]);
    expect(codes).toEqual(['vote-not-sent']);
  });

  it('tells partners a vote in doubt whose re-read fails too is uncertain, not failed', async () => {
    const { card, codes, voted } = await uncertainVote(undefined);
    expect(card.shadowRoot!.querySelector('[part="status"]')?.textContent).toBe(
      'Your vote could not be sent.',
    );
    expect(voted).toEqual([]);
    expect(codes).toEqual(['vote-uncertain']);
  });

  it('shows a vote the proxy could not confirm as voted, with the answer the platform recorded', async () => {
    const { card, posts, codes, voted } = await uncertainVote({
      userVote: true,
      answers: [{ id: 'a1' }, { id: 'a2', voteStatus: 'accepted' }],
    });
    expect(text(card)).toContain('You voted for Bea (confirmed)');
    expect(card.shadowRoot!.querySelector('[part="status"]')).toBeNull();
    expect(button(card)).toBeNull();
    expect(posts).toEqual([proxyRoutes.vote('poll-1')]);
    expect(voted).toEqual(['a2']);
    expect(codes).toEqual([]);
  });

  it('shows a vote in doubt that the fan’s poll does not show as a plain failure the fan may retry', async () => {
    const { card, posts, codes, voted } = await uncertainVote({
      userVote: false,
      answers: [{ id: 'a1' }, { id: 'a2' }],
    });
    expect(card.shadowRoot!.querySelector('[part="status"]')?.textContent).toBe(
      'Your vote could not be sent.',
    );
    expect(text(card)).not.toContain('You voted for');
    expect(button(card)?.textContent.trim()).toBe('Vote');
    expect(button(card)?.getAttribute('aria-disabled')).toBe('false');
    expect(posts).toEqual([proxyRoutes.vote('poll-1')]);
    expect(voted).toEqual([]);
    expect(codes).toEqual(['vote-failed']);
  });

  it('ends a cancelled sign-in (closed window, or Deny on the consent page) in a clear, retryable state', async () => {
    const { channel, calls } = fakeChannel();
    channel.signIn = () => {
      calls.signIn += 1;
      return Promise.resolve(false);
    };
    const stages: string[] = [];
    document.addEventListener('fan-poll-sign-in', (event) => stages.push(event.detail.stage));
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    button(card)!.click();
    await settle(card);
    expect(stages).toEqual(['started', 'failed']);
    expect(text(card)).toContain('Sign-in was cancelled. You can try again.');
    expect(button(card)?.textContent.trim()).toBe('Sign in to vote');
    button(card)!.click();
    await settle(card);
    expect(calls.signIn).toBe(2);
  });

  it('says so when the browser blocks the sign-in window', async () => {
    const { channel } = fakeChannel();
    channel.signIn = () => Promise.reject(new WidgetError('popup-blocked', 'blocked'));
    const codes: string[] = [];
    document.addEventListener('fan-poll-error', (event) => codes.push(event.detail.code));
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    button(card)!.click();
    await settle(card);
    expect(text(card)).toContain('Your browser blocked the sign-in window');
    expect(codes).toEqual(['popup-blocked']);
  });

  it('shows a vote failure and lets the fan try again', async () => {
    let fail = true;
    const { channel, calls } = fakeChannel({
      signedIn: true,
      vote: () => (fail ? Promise.reject(new WidgetError('vote-failed', 'down')) : Promise.resolve()),
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    await settle(card);
    expect(text(card)).toContain('Your vote could not be sent.');
    fail = false;
    button(card)!.click();
    await settle(card);
    expect(calls.vote).toEqual(['a1', 'a1']);
    expect(text(card)).toContain('You voted for Ada');
  });
});
