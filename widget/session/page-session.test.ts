import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { defineElements } from '../define-elements.ts';
import type { FanPoll } from '../fan-poll/fan-poll.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import { fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { fakeProxy } from '../test-support/fake-proxy.ts';
import { settle } from '../test-support/settle.ts';
import { pageSession, type FanSession } from './page-session.ts';
import { sessionChangedEvent, sessionChannelName, sessionCheckEvent } from './session-events.ts';

await defineElements();
await cardDetails.load();

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the page’s fan session with a proxy', () => {
  it('reads the session once for every subscriber, and tells each who is signed in', async () => {
    const proxy = fakeProxy();
    proxy.server.userId = 'fan-1';
    const session = pageSession(proxy.url, proxy.fetchImpl);
    const heard: FanSession[][] = [[], []];
    for (const seen of heard) session.subscribe((next) => seen.push(next));
    await tick();
    expect(heard).toEqual([
      [{ state: 'signed-in', userId: 'fan-1' }],
      [{ state: 'signed-in', userId: 'fan-1' }],
    ]);
    expect(proxy.sent).toEqual([`GET ${proxyRoutes.session}`]);
    expect(pageSession(proxy.url)).toBe(session);
  });

  it('tells the other documents and the banners when a card changed it, with the proxy’s origin only', async () => {
    const proxy = fakeProxy();
    const session = pageSession(proxy.url, proxy.fetchImpl);
    const other = new BroadcastChannel(sessionChannelName);
    const broadcast: unknown[] = [];
    other.addEventListener('message', (event: MessageEvent) => broadcast.push(event.data));
    const events: unknown[] = [];
    window.addEventListener(sessionChangedEvent, (event) => events.push((event as CustomEvent).detail));
    proxy.server.userId = 'fan-2';
    expect(await session.changed()).toEqual({ state: 'signed-in', userId: 'fan-2' });
    await vi.waitFor(() => {
      expect(broadcast).toEqual([{ type: sessionChangedEvent, proxy: proxy.origin }]);
    });
    expect(events).toEqual([proxy.origin]);
    other.close();
  });

  it('asks the proxy again on a hint from elsewhere, and ignores hints for another proxy or of another shape', async () => {
    const proxy = fakeProxy();
    const session = pageSession(proxy.url, proxy.fetchImpl);
    const heard: FanSession[] = [];
    session.subscribe((next) => heard.push(next));
    await tick();
    proxy.server.userId = 'fan-3';
    window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: 'https://other.example' }));
    const other = new BroadcastChannel(sessionChannelName);
    other.postMessage('forged');
    other.postMessage({ type: sessionChangedEvent, proxy: 'https://other.example' });
    // A hint carries nothing the page trusts: whoever is signed in is what the proxy says. Heard after the ignored
    // ones (a channel delivers in order), it is the only one the proxy was asked again for.
    other.postMessage({ type: sessionChangedEvent, proxy: proxy.origin });
    await vi.waitFor(() => {
      expect(heard.at(-1)).toEqual({ state: 'signed-in', userId: 'fan-3' });
    });
    expect(proxy.sent).toHaveLength(2);
    window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: proxy.origin }));
    await vi.waitFor(() => {
      expect(proxy.sent).toHaveLength(3);
    });
    other.close();
  });

  it('signs out at the proxy, then tells every subscriber', async () => {
    const proxy = fakeProxy();
    proxy.server.userId = 'fan-4';
    const session = pageSession(proxy.url, proxy.fetchImpl);
    const heard: FanSession[] = [];
    session.subscribe((next) => heard.push(next));
    await tick();
    await session.signOut();
    expect(proxy.sent).toContain(`POST ${proxyRoutes.signOut}`);
    expect(heard).toEqual([{ state: 'signed-in', userId: 'fan-4' }, { state: 'signed-out' }]);
  });
});

describe('cards sharing the page’s session', () => {
  /** Two cards on one proxy, with no channel of their own: they vote through the proxy, as on a partner page. */
  async function twoCards(proxy: ReturnType<typeof fakeProxy>): Promise<FanPoll[]> {
    vi.stubGlobal('fetch', proxy.fetchImpl);
    const cards = ['poll-1', 'poll-2'].map((pollId) => {
      const card = document.createElement('fan-poll');
      card.setAttribute('poll-id', pollId);
      card.setAttribute('proxy', proxy.url);
      card.setAttribute('eager', '');
      card.store = fakeStore({
        status: 'ready',
        poll: pollIn('open', { id: pollId }),
        fetchedAt: Date.now(),
      });
      document.body.append(card);
      return card;
    });
    // Each card's voting starts after its first paint; the extension handshake goes unanswered (1 s), then the
    // proxy's session decides, and every card follows it.
    await vi.waitFor(
      () => {
        for (const card of cards) expect(card.shadowRoot!.querySelector('[part="button"]')).not.toBeNull();
        expect(pageSession(proxy.url).subscribers).toBe(cards.length);
      },
      { timeout: 3000 },
    );
    return cards;
  }
  const text = (card: FanPoll): string => card.shadowRoot!.textContent.replace(/\s+/g, ' ');

  it('signs every card in, out and as someone else together', { timeout: 10_000 }, async () => {
    const proxy = fakeProxy();
    const cards = await twoCards(proxy);
    for (const card of cards) expect(text(card)).toContain('Sign in to vote');

    // Signed in elsewhere (a banner of this page): one hint, every card follows what the proxy says.
    proxy.server.userId = 'fan-5';
    window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: proxy.origin }));
    await vi.waitFor(() => {
      for (const card of cards) {
        expect(card.shadowRoot!.querySelector('[part="button"]')?.textContent.trim()).toBe('Vote');
        expect(card.shadowRoot!.querySelector('[part="account"]')?.textContent).toContain(
          'Signed in as fan-5',
        );
      }
    });
    // Each card read its own poll's vote for the fan.
    expect(proxy.sent).toEqual(
      expect.arrayContaining(['GET /api/user/polls/poll-1', 'GET /api/user/polls/poll-2']),
    );

    // Sign-out from the second card signs the first out too.
    const signOut = [...cards[1]!.shadowRoot!.querySelectorAll('[part="account"] button')].find(
      (each) => each.textContent.trim() === 'Sign out',
    ) as HTMLButtonElement;
    signOut.click();
    await vi.waitFor(() => {
      for (const card of cards) {
        expect(card.shadowRoot!.querySelector('[part="button"]')?.textContent.trim()).toBe('Sign in to vote');
        expect(card.shadowRoot!.querySelector('[part="account"]')).toBeNull();
      }
    });
    expect(proxy.sent.filter((each) => each === `POST ${proxyRoutes.signOut}`)).toHaveLength(1);

    // Switching account opens the proxy's sign-in from the click; the fan stays who they were until it succeeds.
    proxy.server.userId = 'fan-6';
    window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: proxy.origin }));
    await vi.waitFor(() => {
      expect(cards[0]!.shadowRoot!.querySelector('[part="account"]')).not.toBeNull();
    });
    const opened: string[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
    const switchAccount = [...cards[0]!.shadowRoot!.querySelectorAll('[part="account"] button')].find(
      (each) => each.textContent.trim() === 'Switch account',
    ) as HTMLButtonElement;
    switchAccount.click();
    await settle(cards[0]!);
    expect(opened).toHaveLength(1);
    expect(new URL(opened[0]!).pathname).toBe(proxyRoutes.signIn);
    // The browser blocked that window: the card says so, and the fan is still signed in as before.
    expect(text(cards[0]!)).toContain('Your browser blocked the sign-in window');
    expect(text(cards[0]!)).toContain('Signed in as fan-6');
  });

  it('stops following a pending vote’s confirmation once the fan signed out, even if signed in again', async () => {
    const proxy = fakeProxy();
    proxy.server.userId = 'fan-8';
    const [card] = await twoCards(proxy);
    const root = card!.shadowRoot!;
    root.querySelector('input')!.click();
    await settle(card!);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      root.querySelector<HTMLButtonElement>('[part="button"]')!.click();
      await vi.waitFor(() => {
        expect(text(card!)).toContain('being confirmed');
      });
      const signOut = [...root.querySelectorAll('[part="account"] button')].find(
        (each) => each.textContent.trim() === 'Sign out',
      ) as HTMLButtonElement;
      signOut.click();
      await vi.waitFor(() => {
        expect(root.querySelector('[part="account"]')).toBeNull();
      });
      // Signed in again (a banner of the page) before the confirmation's first re-read (after 2 s): the card shows
      // the vote the page knows; the follow that began before the sign-out stays ended.
      proxy.server.userId = 'fan-8';
      window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: proxy.origin }));
      await vi.waitFor(() => {
        expect(text(card!)).toContain('being confirmed');
      });
      const reads = () => proxy.sent.filter((each) => each === 'GET /api/user/polls/poll-1').length;
      const readsSignedInAgain = reads();
      await vi.advanceTimersByTimeAsync(31_000);
      expect(reads()).toBe(readsSignedInAgain);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets go of the page’s session when a card leaves the page, and follows it again when put back', async () => {
    const proxy = fakeProxy();
    proxy.server.userId = 'fan-7';
    const cards = await twoCards(proxy);
    const session = pageSession(proxy.url);
    expect(session.subscribers).toBe(2);

    cards[0]!.remove();
    expect(session.subscribers).toBe(1);
    cards[1]!.remove();
    expect(session.subscribers).toBe(0);

    // Back on the page: it follows the session again, and shows who is signed in.
    document.body.append(cards[0]!);
    expect(session.subscribers).toBe(1);
    await vi.waitFor(() => {
      expect(cards[0]!.shadowRoot!.querySelector('[part="button"]')?.textContent.trim()).toBe('Vote');
    });
  });
});
