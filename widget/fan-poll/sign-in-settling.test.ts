// A card whose sign-in through the proxy's pop-up has not ended when the page's session already says the fan is
// signed in (the page came back into view as the pop-up closed, or a banner of the page heard of it, before the
// pop-up's answer was taken): its Vote shows, inactive, and takes a tap only once the sign-in has ended. A Vote that
// looks ready but ignores the tap is what a fan on a slow phone met.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { defineElements } from '../define-elements.ts';
import { sessionCheckEvent } from '../session/session-events.ts';
import { fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { cardDetails } from './details-part.ts';
import type { FanPoll } from './fan-poll.ts';

await defineElements();
await cardDetails.load();

const proxyUrl = 'https://polls-settling.club.example';

/** A proxy where the fan is signed out until the test sets `signedIn`; every vote it recorded kept. */
function proxy() {
  const state = { signedIn: false, votes: [] as string[] };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const { pathname } = new URL(input);
      if (pathname === proxyRoutes.session)
        return Promise.resolve(
          Response.json(state.signedIn ? { signedIn: true, userId: 'u1' } : { signedIn: false }),
        );
      if ((init.method ?? 'GET') === 'POST' && pathname === proxyRoutes.vote('poll-1')) {
        state.votes.push(String((JSON.parse(init.body as string) as { answerId: unknown }).answerId));
        return Promise.resolve(new Response(null, { status: 201 }));
      }
      const voted = state.votes.length > 0;
      const answers = [{ id: 'a1' }, { id: 'a2', ...(voted && { voteStatus: 'accepted' }) }];
      return Promise.resolve(Response.json({ data: { id: 'poll-1', userVote: voted, answers } }));
    }),
  );
  return state;
}

// Margins for a loaded runner: the extension's handshake alone takes 1 s.
const patience = { timeout: 5000 };

const button = (card: FanPoll) => card.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]');
const label = (card: FanPoll) => button(card)?.textContent.trim();

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a card whose sign-in has not ended while the page already knows the fan signed in', () => {
  it('shows Vote inactive, ignores a tap then, and votes on the tap after the sign-in ended', async () => {
    const platform = proxy();
    const popup = { closed: false } as unknown as Window;
    vi.spyOn(window, 'open').mockReturnValue(popup);
    const card = document.createElement('fan-poll');
    for (const [name, value] of Object.entries({ 'poll-id': 'poll-1', proxy: proxyUrl, eager: '' }))
      card.setAttribute(name, value);
    card.store = fakeStore({ status: 'ready', poll: pollIn('open'), fetchedAt: Date.now() });
    document.body.append(card);
    // The extension's handshake goes unanswered (1 s), then the proxy says the fan is signed out.
    await vi.waitFor(() => {
      expect(button(card)?.getAttribute('aria-disabled')).toBe('false');
    }, patience);
    expect(label(card)).toBe('Sign in to vote');
    card.shadowRoot!.querySelectorAll('input')[1]!.click();
    button(card)!.click();
    await vi.waitFor(() => {
      expect(label(card)).toBe('Signing in…');
    }, patience);

    // The fan signed in in the pop-up; the page hears of it before the pop-up's answer is taken.
    platform.signedIn = true;
    window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: proxyUrl }));
    await vi.waitFor(() => {
      expect(label(card)).toBe('Vote');
    }, patience);
    expect(button(card)!.getAttribute('aria-disabled')).toBe('true');
    button(card)!.click();

    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'fan-polls:sign-in', ok: true, userId: 'u1' },
        origin: proxyUrl,
        source: popup,
      }),
    );
    await vi.waitFor(() => {
      expect(button(card)?.getAttribute('aria-disabled')).toBe('false');
    }, patience);
    expect(label(card)).toBe('Vote');
    expect(platform.votes).toEqual([]);
    button(card)!.click();
    await vi.waitFor(() => {
      expect(card.shadowRoot!.textContent).toContain('You voted for Bea');
    }, patience);
    expect(platform.votes).toEqual(['a2']);
  });
});
