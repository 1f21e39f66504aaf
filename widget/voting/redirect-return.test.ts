import { afterAll, describe, expect, it, vi } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { cardReturnKey, signInPickKey, type SignInReturn } from '../../src/contracts/sign-in-return.ts';
import { unknownFan } from './fan-action.ts';
import type { FanPoll } from '../fan-poll/fan-poll.ts';
import type { PageSession } from '../session/page-session.ts';
import type { ProxyVoteChannel } from './proxy-channel.ts';
import type { WidgetError } from './widget-error.ts';
import { fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { settle } from '../test-support/settle.ts';

// The page as the proxy sends it back: the fan's pick saved before it left, the handoff code in the fragment after
// the page's own. Set before the widget's modules load, as a real page is.
const code = 'hY3k_9-Zq0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345';
const proxyUrl = 'https://polls.club.example';
history.replaceState(null, '', `/match/12?tab=poll#comments&${cardReturnKey}=${code}`);
sessionStorage.setItem(signInPickKey, JSON.stringify({ pollId: 'poll-2', answerId: 'b2' }));

const sent: string[] = [];
const redeemed: unknown[] = [];
let signedIn = false;
vi.stubGlobal(
  'fetch',
  vi.fn((input: string, init: RequestInit = {}) => {
    const path = new URL(input).pathname;
    const method = init.method ?? 'GET';
    sent.push(`${method} ${path}`);
    if (method === 'POST' && path === proxyRoutes.sessionHandoff) {
      redeemed.push(JSON.parse(init.body as string));
      signedIn = true;
      return Promise.resolve(Response.json({ signedIn: true, userId: 'fan-1' }));
    }
    if (path === proxyRoutes.session)
      return Promise.resolve(
        Response.json(signedIn ? { signedIn: true, userId: 'fan-1' } : { signedIn: false }),
      );
    if (method === 'GET' && path.startsWith('/api/user/polls/'))
      return Promise.resolve(Response.json({ data: { userVote: false, answers: [] } }));
    return Promise.resolve(new Response('no route', { status: 404 }));
  }),
);

const { defineElements } = await import('../define-elements.ts');
const { startPageWidget } = await import('../page-widget.ts');
await defineElements();
startPageWidget({ proxyUrl });

afterAll(() => {
  vi.unstubAllGlobals();
});

function card(pollId: string, answers: [string, string]): FanPoll {
  const element = document.createElement('fan-poll');
  for (const [name, value] of Object.entries({ 'poll-id': pollId, proxy: proxyUrl, eager: '' }))
    element.setAttribute(name, value);
  const answerIds = (each: ReturnType<typeof pollIn>['answers'][number], index: number) => ({
    ...each,
    id: answers[index] ?? each.id,
  });
  const poll = pollIn('open', { id: pollId, answers: pollIn('open').answers.map(answerIds) });
  element.store = fakeStore({ status: 'ready', poll, fetchedAt: Date.now() });
  document.body.append(element);
  return element;
}

describe('sign-in without a pop-up, the way back', () => {
  it('takes the code out of the address bar at once, keeping the rest of the URL', async () => {
    await vi.waitFor(() => {
      expect(location.href).toBe(`${location.origin}/match/12?tab=poll#comments`);
    });
  });

  it(
    'redeems the code once for the page; the picked poll’s card shows the pick, signed in, and casts nothing',
    { timeout: 10_000 },
    async () => {
      const stages: string[] = [];
      document.addEventListener('fan-poll-sign-in', (event) =>
        stages.push(`${event.detail.pollId}:${event.detail.via}:${event.detail.stage}`),
      );
      const first = card('poll-1', ['a1', 'a2']);
      const picked = card('poll-2', ['b1', 'b2']);
      await vi.waitFor(
        () => {
          for (const each of [first, picked])
            expect(each.shadowRoot!.querySelector('[part="button"]')?.textContent.trim()).toBe('Vote');
        },
        { timeout: 5000 },
      );
      await settle(picked);
      const checked = (element: FanPoll) =>
        [...element.shadowRoot!.querySelectorAll('input')]
          .filter((input) => input.checked)
          .map((input) => input.value);
      expect(checked(picked)).toEqual(['b2']);
      expect(checked(first)).toEqual([]);
      expect(redeemed).toEqual([{ handoff: code }]);
      expect(sent.filter((each) => each.endsWith('/vote'))).toEqual([]);
      expect(sessionStorage.getItem(signInPickKey)).toBeNull();
      expect(stages).toEqual(['poll-2:redirect:signed-in']);
      expect(location.hash).toBe('#comments');
    },
  );
});

describe('the page’s outcome of a sign-in without a pop-up', () => {
  /** A fresh copy of the module (its outcome is once per page), a channel whose redeeming the test decides. */
  async function outcomeOf(
    marker: SignInReturn | undefined,
    redeem: (errors: typeof WidgetError) => Promise<boolean>,
  ) {
    vi.resetModules();
    const { signInReturned } = await import('./redirect-return.ts');
    // The copy of the error class the fresh module knows.
    const { WidgetError: FreshError } = await import('./widget-error.ts');
    const checks: string[] = [];
    const session = {
      changed: () => {
        checks.push('changed');
        return Promise.resolve({ state: 'signed-in' as const, userId: 'fan-1' });
      },
      check: () => {
        checks.push('check');
        return Promise.resolve({ state: 'signed-out' as const });
      },
    } as unknown as PageSession;
    const channel = { redeemHandoff: vi.fn(() => redeem(FreshError)) } as unknown as ProxyVoteChannel;
    const run = { pollId: 'poll-1', fan: unknownFan, busy: false };
    const outcome = await signInReturned(run, {
      channel,
      session,
      claim: () => marker && { marker, pick: undefined },
    });
    return { outcome, checks, redeemed: (channel.redeemHandoff as ReturnType<typeof vi.fn>).mock.calls };
  }

  it('is a failure when the proxy refuses the code (used already, expired, another page’s), and reads the session', async () => {
    const { outcome, checks, redeemed } = await outcomeOf({ handoff: code }, (Errors) =>
      Promise.reject(new Errors('sign-in-failed', 'refused')),
    );
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'sign-in-failed', message: 'refused' } });
    expect(redeemed).toEqual([[code]]);
    expect(checks).toEqual(['check']);
  });

  it('is a cancel for access_denied, a failure for any other error, without redeeming anything', async () => {
    const redeem = () => Promise.resolve(true);
    expect((await outcomeOf({ error: 'access_denied' }, redeem)).outcome).toEqual({ kind: 'cancelled' });
    const other = await outcomeOf({ error: 'sign_in_expired' }, redeem);
    expect(other.outcome).toMatchObject({ kind: 'failed', error: { code: 'sign-in-failed' } });
    expect(other.redeemed).toEqual([]);
  });

  it('never sends a malformed code', async () => {
    const { outcome, redeemed } = await outcomeOf({ handoff: 'x"><script>' }, () => Promise.resolve(true));
    expect(outcome).toMatchObject({ kind: 'failed' });
    expect(redeemed).toEqual([]);
  });

  it('tells every card of a new session once signed in', async () => {
    const { outcome, checks } = await outcomeOf({ handoff: code }, () => Promise.resolve(true));
    expect(outcome).toEqual({ kind: 'signed-in' });
    expect(checks).toEqual(['changed']);
  });
});
