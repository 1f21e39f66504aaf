import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineElements } from '../define-elements.ts';
import { settle } from '../test-support/settle.ts';
import { fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import type { FanPollErrorEvent } from '../events/fan-poll-error-event.ts';
import type { FanPollList } from './fan-poll-list.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { LivePollState } from '../store/poll-model.ts';

await defineElements();

async function mount(pollIds: (query: URLSearchParams) => Promise<readonly string[]>, attributes = {}) {
  const list = document.createElement('fan-poll-list');
  for (const [name, value] of Object.entries(attributes)) list.setAttribute(name, String(value));
  list.store = fakeStore();
  list.pollIds = pollIds;
  document.body.append(list);
  await settle(list);
  return list;
}

const cards = (list: FanPollList) => [...list.shadowRoot!.querySelectorAll('fan-poll')];

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('<fan-poll-list>', () => {
  it('asks for the polls its filters choose and shows a card for each, sharing its store and tracking', async () => {
    const pollIds = vi.fn((_query: URLSearchParams) => Promise.resolve(['p1', 'p2']));
    const list = await mount(pollIds, {
      'partner-ids': 'club-a',
      limit: 2,
      referrer: 'club-site',
      theme: 'dark',
    });
    expect(pollIds.mock.calls[0]![0].toString()).toBe('limit=2&partnerIds%5B%5D=club-a');
    expect(cards(list).map((card) => card.getAttribute('poll-id'))).toEqual(['p1', 'p2']);
    expect(cards(list).every((card) => card.store === list.store)).toBe(true);
    expect(cards(list)[0]!.getAttribute('referrer')).toBe('club-site');
    expect(cards(list)[0]!.getAttribute('theme')).toBe('dark');
  });

  it('makes each waiting card a Tab stop until it shows a poll with something to press', async () => {
    // p1 is an open poll (its card shows a button), p2 a disclosed one (nothing to press), p3 never arrives.
    const polls: Record<string, Poll> = {
      p1: pollIn('open', { id: 'p1' }),
      p2: pollIn('disclosed', { id: 'p2' }),
    };
    const store = {
      subscribe(pollId: string, listener: (state: LivePollState) => void) {
        const poll = polls[pollId];
        listener(poll ? { status: 'ready', poll, fetchedAt: Date.now() } : { status: 'loading' });
        return () => undefined;
      },
      refresh: () => undefined,
      dispose: () => undefined,
    };
    // No viewport here: every card loads as if scrolled near (p3's read never answers).
    vi.stubGlobal('IntersectionObserver', undefined);
    const list = document.createElement('fan-poll-list');
    list.store = store;
    list.pollIds = () => Promise.resolve(['p1', 'p2', 'p3']);
    document.body.append(list);
    await settle(list);
    const items = () =>
      [...list.shadowRoot!.querySelectorAll('[part="item"]')].map((item) => item.getAttribute('tabindex'));
    await vi.waitFor(async () => {
      for (const card of cards(list)) await settle(card);
      await settle(list);
      // The open card has its own controls to Tab to; the others keep their item's stop.
      expect(items()).toEqual([null, '0', '0']);
    });
  });

  it('keeps the order the partner gave in ids, whatever order the answer came in', async () => {
    const list = await mount(() => Promise.resolve(['p3', 'P1', 'p2']), { ids: 'p1, p2 p3' });
    expect(cards(list).map((card) => card.getAttribute('poll-id'))).toEqual(['P1', 'p2', 'p3']);
  });

  it('reads again when a filter changes, and says so when nothing matches', async () => {
    const pollIds = vi.fn((query: URLSearchParams) =>
      Promise.resolve(query.get('search') === 'none' ? [] : ['p1']),
    );
    const list = await mount(pollIds);
    expect(cards(list)).toHaveLength(1);
    list.setAttribute('search', 'none');
    await settle(list);
    expect(cards(list)).toHaveLength(0);
    expect(list.shadowRoot!.textContent).toMatch(/no polls/i);
  });

  it('fires list-failed when the polls cannot be read, and shows no card', async () => {
    const errors: FanPollErrorEvent[] = [];
    document.addEventListener('fan-poll-error', (event) => errors.push(event), { once: true });
    const list = await mount(() => Promise.reject(new Error('proxy down')));
    expect(cards(list)).toHaveLength(0);
    expect(errors[0]?.detail).toMatchObject({ code: 'list-failed', message: 'proxy down' });
  });

  it('fires unknown-partner, naming the id, when a partner id has no poll at all', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      const known = url.includes('partnerIds%5B%5D=club-1&limit=1');
      const data = known ? [{ id: 'p1' }] : [];
      return Promise.resolve(new Response(JSON.stringify({ data })));
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const errors: FanPollErrorEvent[] = [];
    document.addEventListener('fan-poll-error', (event) => errors.push(event), { once: true });
    const list = document.createElement('fan-poll-list');
    list.setAttribute('proxy', 'https://polls.club.example');
    list.setAttribute('partner-ids', 'club-1 clbu-2');
    list.setAttribute('search', 'derby');
    document.body.append(list);
    await vi.waitFor(() => {
      expect(errors[0]?.detail.code).toBe('unknown-partner');
    });
    expect(errors[0]?.detail.message).toContain('"clbu-2"');
    expect(errors[0]?.detail.message).not.toContain('"club-1"');
    expect(asked).toHaveLength(3);
  });
});

describe('<fan-poll-list> reads that cross', () => {
  it('keeps a newer result when an older read fails after it', async () => {
    const errors: FanPollErrorEvent[] = [];
    document.addEventListener('fan-poll-error', (event) => errors.push(event));
    let failFirst: (error: Error) => void = () => undefined;
    const pollIds = vi.fn((query: URLSearchParams) =>
      query.get('search') === 'new'
        ? Promise.resolve(['p2'])
        : new Promise<readonly string[]>((_, reject) => (failFirst = reject)),
    );
    const list = await mount(pollIds, { search: 'old' });
    list.setAttribute('search', 'new');
    await settle(list);
    expect(cards(list).map((card) => card.getAttribute('poll-id'))).toEqual(['p2']);
    failFirst(new Error('proxy down'));
    await settle(list);
    expect(cards(list).map((card) => card.getAttribute('poll-id'))).toEqual(['p2']);
    expect(errors).toEqual([]);
    expect(pollIds).toHaveBeenCalledTimes(2);
  });
});
