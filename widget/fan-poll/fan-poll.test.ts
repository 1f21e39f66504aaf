import { afterEach, describe, expect, it, vi } from 'vitest';
import '../define-elements.ts';
import { defineElements } from '../define-elements.ts';
import { PlatformError } from '../../src/platform/errors.ts';
import { fakeChannel, fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import type { FanPoll } from './fan-poll.ts';
import { WidgetError } from '../voting/widget-error.ts';
import { loadPart } from '../runtime/parts.ts';

defineElements();

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

async function settle(card: FanPoll): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    await card.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
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

  it('shows an upcoming poll with a countdown and no vote action', async () => {
    const card = await mount(fakeStore(ready(pollIn('upcoming'))));
    expect(text(card)).toMatch(/Upcoming · Opens in \d/);
    expect(button(card)).toBeNull();
    expect(radios(card).every((radio) => radio.disabled)).toBe(true);
  });

  it('shows an open poll as a radio group with percentages as text and a sign-in action', async () => {
    const card = await mount(fakeStore(ready(pollIn('open'))));
    expect(text(card)).toMatch(/Open · Closes in/);
    expect(card.shadowRoot!.querySelector('fieldset legend')?.textContent).toBe(
      'Who was the player of the match?',
    );
    expect(radios(card).map((radio) => radio.disabled)).toEqual([false, false]);
    expect(text(card)).toContain('75%');
    expect(text(card)).toContain('25%');
    expect(text(card)).toContain('(Leading)');
    expect(button(card)?.textContent.trim()).toBe('Sign in to vote');
  });

  it.each([
    ['closed', 'Closed', 'Voting is closed'],
    ['disclosed', 'Results', 'Voting is closed'],
  ] as const)('shows a %s poll read-only', async (phase, badge, note) => {
    const card = await mount(fakeStore(ready(pollIn(phase))));
    expect(card.shadowRoot!.querySelector('[part="phase"]')?.textContent).toBe(badge);
    expect(text(card)).toContain(note);
    expect(button(card)).toBeNull();
    expect(radios(card).every((radio) => radio.disabled)).toBe(true);
  });

  it('shows a cancelled poll', async () => {
    const card = await mount(fakeStore(ready(pollIn('open', { status: 'cancelled' }))));
    expect(card.shadowRoot!.querySelector('[part="phase"]')?.textContent).toBe('Cancelled');
    expect(button(card)).toBeNull();
  });

  it('shows an unknown status read-only, as sent', async () => {
    const card = await mount(fakeStore(ready(pollIn('open', { status: 'suspended' }))));
    expect(card.shadowRoot!.querySelector('[part="phase"]')?.textContent).toBe(
      'Not open for votes (suspended)',
    );
    expect(button(card)).toBeNull();
    expect(radios(card).every((radio) => radio.disabled)).toBe(true);
  });

  it('shows quorum, binding, votes and tokens', async () => {
    const card = await mount(
      fakeStore(
        ready(
          pollIn('open', {
            isBound: true,
            usedTokenCount: 40,
            tokenLimit: 1000,
            statistics: { uniqueVoteCount: 7 },
          }),
        ),
      ),
    );
    expect(text(card)).toContain('7 votes');
    expect(text(card)).toContain('40 of 1,000 tokens');
    expect(text(card)).toContain('Quorum 5% of 20%');
    expect(text(card)).toContain('Binding result');
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
    // French is a lazy part: the card waits for it (skeleton), then speaks it.
    await loadPart('fr');
    await settle(card);
    expect(button(card)?.textContent.trim()).toBe('Se connecter pour voter');
    expect(text(card)).toMatch(/Ouvert · Ferme dans/);
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

  it('shows the fan’s earlier vote and its status', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a1', voteStatus: 'pending' }, { id: 'a2' }] },
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    expect(text(card)).toContain('You voted for Ada (being confirmed)');
    expect(radios(card)[0]!.checked).toBe(true);
  });

  it('shows a rejected vote', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a2', voteStatus: 'rejected' }] },
    });
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    expect(text(card)).toContain('Your vote was rejected');
  });

  it('shows "not a holder" when the platform refuses a first vote', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      vote: () => Promise.reject(new WidgetError('vote-refused', 'refused')),
    });
    const codes: string[] = [];
    document.addEventListener('fan-poll-error', (event) => codes.push(event.detail.code));
    const card = await mount(fakeStore(ready(pollIn('open'))), { channel });
    radios(card)[0]!.click();
    await settle(card);
    button(card)!.click();
    await settle(card);
    expect(text(card)).toContain('Only Riverside FC fan token holders can vote');
    expect(codes).toEqual(['vote-refused']);
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
