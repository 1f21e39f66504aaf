import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { signInPickKey } from '../../src/contracts/sign-in-return.ts';
import { defineElements } from '../define-elements.ts';
import type { FanPoll } from '../fan-poll/fan-poll.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import { pageSession } from '../session/page-session.ts';
import { fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { fakeProxy } from '../test-support/fake-proxy.ts';
import { settle } from '../test-support/settle.ts';

await defineElements();
await cardDetails.load();

/** A signed-out proxy the card's page fetches (every request kept). */
function signedOutProxy() {
  const proxy = fakeProxy();
  vi.stubGlobal('fetch', proxy.fetchImpl);
  return proxy;
}

/** An open card voting through `proxyUrl` (no channel of its own), once its voting found the fan signed out. */
async function card(proxyUrl: string, attributes: Record<string, string> = {}): Promise<FanPoll> {
  const element = document.createElement('fan-poll');
  const all = { 'poll-id': 'poll-1', proxy: proxyUrl, eager: '', campaign: 'spring-derby', ...attributes };
  for (const [name, value] of Object.entries(all)) element.setAttribute(name, value);
  element.store = fakeStore({ status: 'ready', poll: pollIn('open'), fetchedAt: Date.now() });
  document.body.append(element);
  // The voting starts after the first paint; the extension's handshake goes unanswered (1 s), then the proxy decides.
  await vi.waitFor(
    () => {
      expect(pageSession(proxyUrl).subscribers).toBe(1);
    },
    { timeout: 3000 },
  );
  await settle(element);
  return element;
}

const button = (element: FanPoll) => element.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]')!;
const text = (element: FanPoll): string => element.shadowRoot!.textContent.replace(/\s+/g, ' ');

/** Where the page was sent (`location.assign`, kept from really navigating). */
function keepNavigations(): string[] {
  const went: string[] = [];
  vi.spyOn(window.location, 'assign').mockImplementation((url) => {
    went.push(String(url));
  });
  return went;
}

afterEach(() => {
  document.body.innerHTML = '';
  sessionStorage.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('sign-in without a pop-up, the way out', () => {
  it('offers "Continue to sign in" where the browser opens no window, and sends the page with its pick kept', async () => {
    const proxy = signedOutProxy();
    const element = await card(proxy.url);
    const opened: string[] = [];
    vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
    const went = keepNavigations();
    const stages: string[] = [];
    element.addEventListener('fan-poll-sign-in', (event) =>
      stages.push(`${event.detail.via}:${event.detail.stage}`),
    );
    element.shadowRoot!.querySelectorAll('input')[1]!.click();
    button(element).click();
    await settle(element);
    expect(opened).toHaveLength(1);
    expect(button(element).textContent.trim()).toBe('Continue to sign in');
    expect(text(element)).toContain('This browser did not open the sign-in window.');
    expect(went).toEqual([]);

    button(element).click();
    await vi.waitFor(() => {
      expect(went).toHaveLength(1);
    });
    const url = new URL(went[0]!);
    expect(url.origin + url.pathname).toBe(proxy.url + proxyRoutes.signIn);
    expect([...url.searchParams]).toEqual([
      ['origin', location.origin],
      ['return', location.href],
      ['poll', 'poll-1'],
      ['campaign', 'spring-derby'],
    ]);
    expect(JSON.parse(sessionStorage.getItem(signInPickKey)!)).toEqual({ pollId: 'poll-1', answerId: 'a2' });
    expect(stages).toEqual(['popup:started', 'popup:failed', 'redirect:started']);
    // Nothing was cast: no vote left the page.
    expect(proxy.sent.filter((each) => each.startsWith('POST'))).toEqual([]);
  });

  it('goes that way at once with sign-in="redirect", opening no window', async () => {
    const proxy = signedOutProxy();
    const element = await card(proxy.url, { 'sign-in': 'redirect' });
    const open = vi.spyOn(window, 'open');
    const went = keepNavigations();
    expect(button(element).textContent.trim()).toBe('Continue to sign in');
    expect(text(element)).not.toContain('This browser did not open');
    button(element).click();
    await vi.waitFor(() => {
      expect(went).toHaveLength(1);
    });
    expect(open).not.toHaveBeenCalled();
    // No pick: nothing saved for the trip.
    expect(sessionStorage.getItem(signInPickKey)).toBeNull();
    expect(button(element).textContent.trim()).toBe('Signing in…');
  });

  it('offers the sign-in again when the fan comes back with Back (the page as it was)', async () => {
    const proxy = signedOutProxy();
    const element = await card(proxy.url, { 'sign-in': 'redirect' });
    keepNavigations();
    button(element).click();
    await vi.waitFor(() => {
      expect(button(element).textContent.trim()).toBe('Signing in…');
    });
    const back = new Event('pageshow') as Event & { persisted: boolean };
    Object.defineProperty(back, 'persisted', { value: true });
    window.dispatchEvent(back);
    await settle(element);
    expect(button(element).textContent.trim()).toBe('Continue to sign in');
  });
});
