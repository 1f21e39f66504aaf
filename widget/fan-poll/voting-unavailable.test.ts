// A card while its proxy's shared state (Redis) is down: the proxy answers 503 `state_unavailable` to the session,
// the vote and the sign-in, and the card says voting is briefly unavailable, keeps the fan's pick and signed-in look,
// and the fan's next tap votes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { defineElements } from '../define-elements.ts';
import { pageSession } from '../session/page-session.ts';
import { fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { settle } from '../test-support/settle.ts';
import { proxyChannel } from '../voting/proxy-channel.ts';
import { WidgetError } from '../voting/widget-error.ts';
import { cardDetails } from './details-part.ts';
import type { FanPoll } from './fan-poll.ts';

await defineElements();
await cardDetails.load();

const unavailableSentence = 'Voting is briefly unavailable. Please try again in a moment.';
const unavailable = () =>
  Response.json(
    { error: { code: 'state_unavailable', message: 'Signing in and voting are briefly unavailable.' } },
    { status: 503, headers: { 'Retry-After': '5' } },
  );

let proxies = 0;

/** A proxy where `u1` is signed in, whose shared state the test takes down (`down`); every request kept. */
function proxyOnRedis() {
  proxies += 1;
  const url = `https://polls-outage${String(proxies)}.club.example`;
  const state = { down: false, votes: 0 };
  const sent: string[] = [];
  const fetchImpl = vi.fn((input: string, init: RequestInit = {}) => {
    const { pathname } = new URL(input);
    const method = init.method ?? 'GET';
    sent.push(`${method} ${pathname}`);
    if (state.down) return Promise.resolve(unavailable());
    if (pathname === proxyRoutes.session)
      return Promise.resolve(Response.json({ signedIn: true, userId: 'u1' }));
    if (method === 'POST' && pathname === proxyRoutes.vote('poll-1')) {
      state.votes += 1;
      return Promise.resolve(new Response(null, { status: 201 }));
    }
    const answers = [{ id: 'a1' }, { id: 'a2', ...(state.votes > 0 && { voteStatus: 'accepted' }) }];
    return Promise.resolve(Response.json({ data: { id: 'poll-1', userVote: state.votes > 0, answers } }));
  });
  vi.stubGlobal('fetch', fetchImpl);
  return { url, state, sent };
}

/** An open card voting through `proxyUrl`'s session, once its voting found the fan signed in. */
async function signedInCard(proxyUrl: string): Promise<FanPoll> {
  const card = document.createElement('fan-poll');
  for (const [name, value] of Object.entries({ 'poll-id': 'poll-1', proxy: proxyUrl, eager: '' }))
    card.setAttribute(name, value);
  card.store = fakeStore({ status: 'ready', poll: pollIn('open'), fetchedAt: Date.now() });
  document.body.append(card);
  // The voting starts after the first paint; the extension's handshake goes unanswered (1 s), then the proxy decides.
  await vi.waitFor(
    () => {
      expect(button(card)?.textContent.trim()).toBe('Vote');
    },
    { timeout: 3000 },
  );
  return card;
}

const button = (card: FanPoll) => card.shadowRoot!.querySelector<HTMLButtonElement>('[part="button"]');
const status = (card: FanPoll) => card.shadowRoot!.querySelector('[part="status"]')?.textContent;
const text = (card: FanPoll): string => card.shadowRoot!.textContent.replace(/\s+/g, ' ');
const picked = (card: FanPoll) => card.shadowRoot!.querySelector<HTMLInputElement>('input:checked')?.value;

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a signed-in card while its proxy’s shared state is down', () => {
  it('says voting is briefly unavailable, keeps the pick and the sign-in, and votes on the next tap', async () => {
    const proxy = proxyOnRedis();
    const card = await signedInCard(proxy.url);
    const codes: string[] = [];
    card.addEventListener('fan-poll-error', (event) => codes.push(event.detail.code));
    card.shadowRoot!.querySelectorAll('input')[1]!.click();

    proxy.state.down = true;
    // A re-read of the session that fails leaves the fan as the page knew them.
    await pageSession(proxy.url).check();
    button(card)!.click();
    await vi.waitFor(() => {
      expect(status(card)).toBe(unavailableSentence);
    });
    await settle(card);
    expect(codes).toEqual(['voting-unavailable']);
    expect(picked(card)).toBe('a2');
    expect(button(card)?.textContent.trim()).toBe('Vote');
    expect(text(card)).toContain('Signed in as u1');
    expect(text(card)).not.toContain('Sign-in did not work');
    // Nothing to settle: the vote never left, so the fan's poll is not re-read.
    expect(proxy.sent.filter((each) => each.startsWith('GET /api/user/polls/'))).toHaveLength(1);

    proxy.state.down = false;
    button(card)!.click();
    await vi.waitFor(() => {
      expect(text(card)).toContain('You voted for Bea');
    });
    expect(proxy.state.votes).toBe(1);
    expect(status(card)).toBeUndefined();
  });
});

describe('the proxy channel while the proxy’s shared state is down', () => {
  const channelWith = (answer: () => Response) =>
    proxyChannel('https://polls.club.example', () => Promise.resolve(answer()));

  it('fails a vote as voting-unavailable', async () => {
    const failure: unknown = await channelWith(unavailable)
      .vote('poll-1', 'a1')
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WidgetError);
    expect((failure as WidgetError).code).toBe('voting-unavailable');
  });

  it('fails a sign-in whose pop-up met the outage as voting-unavailable, not as a failed sign-in', async () => {
    const popup = { closed: false } as unknown as Window;
    vi.spyOn(window, 'open').mockReturnValue(popup);
    const signedIn = channelWith(unavailable).signIn({});
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'fan-polls:sign-in', ok: false, error: 'state_unavailable', message: 'Briefly down.' },
        origin: 'https://polls.club.example',
        source: popup,
      }),
    );
    await expect(signedIn).rejects.toMatchObject({ code: 'voting-unavailable' });
  });

  it('fails a handoff the outage kept from being redeemed as voting-unavailable', async () => {
    const channel = channelWith(unavailable);
    await expect(channel.redeemHandoff('hY3k_9-Zq0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345')).rejects.toMatchObject({
      code: 'voting-unavailable',
    });
  });
});
