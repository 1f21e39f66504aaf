import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { csrfHeaderName, proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import { proxyChannel } from './proxy-channel.ts';
import { storageAccessAskable, WidgetError } from './widget-error.ts';

const proxyUrl = 'https://polls.club.example/';
const proxyOrigin = 'https://polls.club.example';
const code = 'hY3k_9-Zq0aBcDeFgHiJkLmNoPqRsTuVwXyZ012345';

interface Sent {
  method: string;
  path: string;
  init: RequestInit;
}

/** A proxy that answers by path; every request is kept. */
function fakeProxy(answers: Record<string, () => Response>) {
  const sent: Sent[] = [];
  const fetchImpl = vi.fn((input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    sent.push({ method: init.method ?? 'GET', path: url.pathname, init });
    const answer = answers[`${init.method ?? 'GET'} ${url.pathname}`];
    return Promise.resolve(answer ? answer() : new Response('no route', { status: 404 }));
  });
  return { fetchImpl: fetchImpl as unknown as typeof fetch, sent };
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Replaces `window.open` with a fake popup; returns what was opened and a way to post as the popup. */
function fakePopup() {
  const popup = { closed: false } as unknown as Window;
  const opened: string[] = [];
  vi.spyOn(window, 'open').mockImplementation((url) => {
    opened.push(String(url));
    return popup;
  });
  const post = (data: unknown, options: { origin?: string; source?: unknown } = {}): void => {
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: options.origin ?? proxyOrigin,
        source: (options.source ?? popup) as Window,
      }),
    );
  };
  return { popup, opened, post };
}

// A card imports its details chunk as its voting starts, before the fan can click: the popup's follow-up is in it.
beforeAll(async () => {
  await cardDetails.load();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('proxy channel sign-in', () => {
  it('opens the popup with the page origin, handoff=1, the card’s poll and the tracking parameters', () => {
    const { opened } = fakePopup();
    const { fetchImpl } = fakeProxy({});
    void proxyChannel(proxyUrl, fetchImpl).signIn({ referrer: 'club-site', param3: 'banner' }, 'p1');
    expect(opened).toHaveLength(1);
    const url = new URL(opened[0]!);
    expect(url.origin + url.pathname).toBe(proxyOrigin + proxyRoutes.signIn);
    expect([...url.searchParams]).toEqual([
      ['origin', location.origin],
      ['handoff', '1'],
      ['poll', 'p1'],
      ['referrer', 'club-site'],
      ['param3', 'banner'],
    ]);
  });

  it('redeems the handoff code once, with credentials, the CSRF header and JSON, then checks the session', async () => {
    const { post } = fakePopup();
    const { fetchImpl, sent } = fakeProxy({
      [`POST ${proxyRoutes.sessionHandoff}`]: () => json({ signedIn: true, userId: 'u1' }),
      [`GET ${proxyRoutes.session}`]: () => json({ signedIn: true, userId: 'u1' }),
    });
    const signedIn = proxyChannel(proxyUrl, fetchImpl).signIn({});
    post({ type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff: code });
    await expect(signedIn).resolves.toBe(true);
    expect(sent.map((each) => `${each.method} ${each.path}`)).toEqual([
      `POST ${proxyRoutes.sessionHandoff}`,
      `GET ${proxyRoutes.session}`,
    ]);
    const init = sent[0]!.init;
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ [csrfHeaderName]: '1', 'Content-Type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({ handoff: code });
  });

  it('never reports signed-in on the handoff body alone: a cookie the browser refused is cookies-blocked', async () => {
    const { post } = fakePopup();
    const { fetchImpl } = fakeProxy({
      // The proxy redeemed the code and set a cookie, which a browser blocking third-party cookies dropped.
      [`POST ${proxyRoutes.sessionHandoff}`]: () => json({ signedIn: true, userId: 'u1' }),
      [`GET ${proxyRoutes.session}`]: () => json({ signedIn: false }),
    });
    const signedIn = proxyChannel(proxyUrl, fetchImpl).signIn({});
    post({ type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff: code });
    const error: unknown = await signedIn.catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(WidgetError);
    expect((error as WidgetError).code).toBe('cookies-blocked');
  });

  it('falls back to the session it can see when the proxy refuses the code, without trying the code again', async () => {
    const { post } = fakePopup();
    const { fetchImpl, sent } = fakeProxy({
      [`POST ${proxyRoutes.sessionHandoff}`]: () =>
        json({ error: { code: 'invalid_handoff', message: 'Sign in again.' } }, 400),
      [`GET ${proxyRoutes.session}`]: () => json({ signedIn: true, userId: 'u1' }),
    });
    const signedIn = proxyChannel(proxyUrl, fetchImpl).signIn({});
    post({ type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff: code });
    await expect(signedIn).resolves.toBe(true);
    expect(sent.map((each) => `${each.method} ${each.path}`)).toEqual([
      `POST ${proxyRoutes.sessionHandoff}`,
      `GET ${proxyRoutes.session}`,
    ]);
  });

  it.each([
    ['a refused code (403)', () => json({ error: { code: 'origin_not_allowed', message: 'No' } }, 403)],
    ['an unreachable proxy', () => Promise.reject(new TypeError('network')) as unknown as Response],
  ])(
    'fails the sign-in after %s when the page has no session, and the code goes nowhere',
    async (_, answer) => {
      const { post } = fakePopup();
      const { fetchImpl, sent } = fakeProxy({
        [`POST ${proxyRoutes.sessionHandoff}`]: answer,
        [`GET ${proxyRoutes.session}`]: () => json({ signedIn: false }),
      });
      const signedIn = proxyChannel(proxyUrl, fetchImpl).signIn({});
      post({ type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff: code });
      const error: unknown = await signedIn.catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(WidgetError);
      expect((error as WidgetError).code).toBe('sign-in-failed');
      expect(
        JSON.stringify({ message: (error as WidgetError).message, cause: String((error as Error).cause) }),
      ).not.toContain(code);
      expect(sent.filter((each) => each.path === proxyRoutes.sessionHandoff)).toHaveLength(1);
    },
  );

  it('resolves at once on a success with no code (a proxy without handoffs)', async () => {
    const { post } = fakePopup();
    const { fetchImpl, sent } = fakeProxy({});
    const signedIn = proxyChannel(proxyUrl, fetchImpl).signIn({});
    post({ type: 'fan-polls:sign-in', ok: true, userId: 'u1' });
    await expect(signedIn).resolves.toBe(true);
    expect(sent).toEqual([]);
  });

  it('treats Deny on the consent page as a cancel and other failures as failures', async () => {
    const { post } = fakePopup();
    const { fetchImpl } = fakeProxy({});
    const channel = proxyChannel(proxyUrl, fetchImpl);
    const denied = channel.signIn({});
    post({ type: 'fan-polls:sign-in', ok: false, error: 'access_denied', message: 'Denied' });
    await expect(denied).resolves.toBe(false);
    const failed = channel.signIn({});
    post({ type: 'fan-polls:sign-in', ok: false, error: 'server_error', message: 'Down' });
    await expect(failed).rejects.toMatchObject({ code: 'sign-in-failed' });
  });

  it('ignores messages from another origin or window, and malformed codes', async () => {
    vi.useFakeTimers();
    const { popup, post } = fakePopup();
    const { fetchImpl, sent } = fakeProxy({
      [`GET ${proxyRoutes.session}`]: () => json({ signedIn: false }),
    });
    const signedIn = proxyChannel(proxyUrl, fetchImpl).signIn({});
    const good = { type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff: code };
    post(good, { origin: 'https://evil.example' });
    post(good, { source: window });
    for (const handoff of ['short', `${code} `, 'a'.repeat(129), 'code/with/slashes-0123456789', 42]) {
      post({ ...good, handoff });
    }
    (popup as { closed: boolean }).closed = true;
    await vi.advanceTimersByTimeAsync(600);
    await expect(signedIn).resolves.toBe(false);
    expect(sent.map((each) => `${each.method} ${each.path}`)).toEqual([`GET ${proxyRoutes.session}`]);
  });

  it('says so when the popup is blocked', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    await expect(proxyChannel(proxyUrl, fakeProxy({}).fetchImpl).signIn({})).rejects.toMatchObject({
      code: 'popup-blocked',
    });
  });
});

describe('proxy channel in a frame of the proxy’s origin, where the browser dropped the cookie', () => {
  /** This document as a frame on the proxy's origin with the Storage Access API; `grant` answers its request. */
  function inProxyFrame(grant: boolean) {
    vi.spyOn(window, 'top', 'get').mockReturnValue({} as Window);
    const request = vi.fn(() =>
      grant ? Promise.resolve() : Promise.reject(new DOMException('', 'NotAllowedError')),
    );
    Object.defineProperty(document, 'requestStorageAccess', { value: request, configurable: true });
    return request;
  }

  afterEach(() => {
    Reflect.deleteProperty(document, 'requestStorageAccess');
  });

  /** A sign-in whose handoff the proxy took but whose cookie the browser dropped; then the session is `later`. */
  async function unstuckSignIn(later: boolean) {
    const { post, opened } = fakePopup();
    let signedIn = false;
    const { fetchImpl } = fakeProxy({
      [`POST ${proxyRoutes.sessionHandoff}`]: () => json({ signedIn: true, userId: 'u1' }),
      [`GET ${proxyRoutes.session}`]: () => json({ signedIn }),
    });
    const channel = proxyChannel(location.origin, fetchImpl);
    const first = channel.signIn({});
    post({ type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff: code }, { origin: location.origin });
    const error: unknown = await first.catch((failure: unknown) => failure);
    signedIn = later;
    return { channel, error, opened };
  }

  it('says the next tap asks, and that tap asks the browser, then reads the session the sign-in left', async () => {
    const request = inProxyFrame(true);
    const { channel, error, opened } = await unstuckSignIn(true);
    expect(error).toMatchObject({ code: 'cookies-blocked', cause: storageAccessAskable });
    expect(channel.asksStorageAccess()).toBe(true);
    await expect(channel.signIn({})).resolves.toBe(true);
    expect(request).toHaveBeenCalledTimes(1);
    expect(opened).toHaveLength(1);
    expect(channel.asksStorageAccess()).toBe(false);
  });

  it('keeps today’s cookies-blocked where the browser refuses', async () => {
    inProxyFrame(false);
    const { channel } = await unstuckSignIn(false);
    const error: unknown = await channel.signIn({}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(WidgetError);
    expect(error).toMatchObject({ code: 'cookies-blocked' });
    expect((error as WidgetError).cause).not.toBe(storageAccessAskable);
  });

  it('never asks from the page itself (only the proxy’s own frame can be given its cookies)', async () => {
    Object.defineProperty(document, 'requestStorageAccess', { value: vi.fn(), configurable: true });
    const { channel, error } = await unstuckSignIn(false);
    expect((error as WidgetError).cause).toBeUndefined();
    expect(channel.asksStorageAccess()).toBe(false);
  });
});

describe('proxy channel votes', () => {
  /** Where each vote went: the path and query. */
  function votesTo() {
    const urls: string[] = [];
    const fetchImpl = (input: string) => {
      const url = new URL(input);
      urls.push(url.pathname + url.search);
      return Promise.resolve(new Response(null, { status: 201 }));
    };
    return { urls, channel: proxyChannel(proxyUrl, fetchImpl) };
  }

  it('carries the card’s tracking parameters in the query, in the spec’s order, where the proxy counts them', async () => {
    const { urls, channel } = votesTo();
    await channel.vote('p1', 'a1', { param1: 'row-3', campaign: 'spring', referrer: 'club-site' });
    expect(urls).toEqual([`${proxyRoutes.vote('p1')}?referrer=club-site&campaign=spring&param1=row-3`]);
  });

  it('sends no query for a card without tracking parameters', async () => {
    const { urls, channel } = votesTo();
    await channel.vote('p1', 'a1', {});
    await channel.vote('p1', 'a1');
    expect(urls).toEqual([proxyRoutes.vote('p1'), proxyRoutes.vote('p1')]);
  });
});

describe('proxy channel vote errors', () => {
  const votePath = proxyRoutes.vote('p1');
  const refusal = (reason?: unknown) =>
    json(
      { error: { code: 'vote_refused', message: 'Refused', ...(reason === undefined ? {} : { reason }) } },
      409,
    );

  it.each([
    ['not_holder', 'not-holder'],
    ['already_voted', 'already-voted'],
    ['poll_not_open', 'poll-closed'],
    ['unknown_answer', 'vote-refused'],
    ['unknown_poll', 'vote-refused'],
    ['a_reason_from_the_future', 'vote-refused'],
    [undefined, 'vote-refused'],
  ])('maps a refusal with reason %s to %s, from the reason only', async (reason, expected) => {
    const { fetchImpl, sent } = fakeProxy({ [`POST ${votePath}`]: () => refusal(reason) });
    await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
      code: expected,
    });
    expect(sent).toHaveLength(1);
  });

  it.each([
    ['a 401', () => json({ error: { code: 'not_signed_in', message: 'Sign in' } }, 401), 'sign-in-required'],
    ['a non-JSON 502', () => new Response('<html>', { status: 502 }), 'vote-failed'],
    // A code that merely mentions a holder is not a reason: only `reason` says why.
    [
      'a code naming a holder',
      () => json({ error: { code: 'not_holder', message: 'x' } }, 403),
      'vote-failed',
    ],
  ])('maps %s', async (_, answer, expected) => {
    const { fetchImpl } = fakeProxy({ [`POST ${votePath}`]: answer });
    await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
      code: expected,
    });
  });
});

describe('proxy channel votes whose outcome is unknown', () => {
  const votePath = proxyRoutes.vote('p1');
  const fanPollPath = proxyRoutes.userPoll('p1');
  const uncertain = () =>
    json({ error: { code: 'vote_uncertain', message: 'The vote may not have been counted.' } }, 502);
  const fanPoll = (userVote: boolean, answers: unknown[]) => () =>
    json({ data: { id: 'p1', userVote, answers } });
  const routes = (sent: Sent[]) => sent.map((each) => `${each.method} ${each.path}`);
  /** What `fetch` rejects with when `AbortSignal.timeout` fires, and when the network fails. */
  const timedOut = () => Promise.reject(new DOMException('signal timed out', 'TimeoutError')) as never;
  const unreachable = () => Promise.reject(new TypeError('Failed to fetch')) as never;
  /** The three ways a vote's outcome stays unknown. */
  const inDoubt = [
    ['the proxy’s vote_uncertain', uncertain],
    ['the widget’s own timeout', timedOut],
    ['a network failure', unreachable],
  ] as const;

  it.each(inDoubt)(
    'settles %s by re-reading the fan’s poll: the recorded answer, with one vote sent',
    async (_, voteAnswer) => {
      const { fetchImpl, sent } = fakeProxy({
        [`POST ${votePath}`]: voteAnswer,
        // The platform recorded a2 (not the pick a1: the recorded answer is what the card shows).
        [`GET ${fanPollPath}`]: fanPoll(true, [{ id: 'a1' }, { id: 'a2', voteStatus: 'pending' }]),
      });
      await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).resolves.toBe('a2');
      expect(routes(sent)).toEqual([`POST ${votePath}`, `GET ${fanPollPath}`]);
    },
  );

  it.each(inDoubt)(
    'fails %s plainly when the fan’s poll shows no vote, and never sends it again',
    async (_, voteAnswer) => {
      const { fetchImpl, sent } = fakeProxy({
        [`POST ${votePath}`]: voteAnswer,
        [`GET ${fanPollPath}`]: fanPoll(false, [{ id: 'a1' }, { id: 'a2' }]),
      });
      await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
        code: 'vote-failed',
      });
      expect(routes(sent)).toEqual([`POST ${votePath}`, `GET ${fanPollPath}`]);
    },
  );

  it('says the vote is uncertain (never failed) when the re-read fails too, after one vote and one read', async () => {
    const { fetchImpl, sent } = fakeProxy({
      [`POST ${votePath}`]: uncertain,
      [`GET ${fanPollPath}`]: timedOut,
    });
    await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
      code: 'vote-uncertain',
    });
    expect(routes(sent)).toEqual([`POST ${votePath}`, `GET ${fanPollPath}`]);
  });

  it('says not sent, with no re-read, when the proxy knows the vote never left', async () => {
    const { fetchImpl, sent } = fakeProxy({
      [`POST ${votePath}`]: () =>
        json({ error: { code: 'vote_not_sent', message: 'Your vote was not sent. Try again.' } }, 503),
    });
    await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
      code: 'vote-not-sent',
    });
    expect(routes(sent)).toEqual([`POST ${votePath}`]);
  });

  it('says already voted when the platform has a vote but no answer says which', async () => {
    const { fetchImpl } = fakeProxy({
      [`POST ${votePath}`]: uncertain,
      [`GET ${fanPollPath}`]: fanPoll(true, [{ id: 'a1' }, { id: 'a2' }]),
    });
    await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
      code: 'already-voted',
    });
  });

  it.each([
    ['a non-JSON 502', () => new Response('<html>', { status: 502 }), 'vote-failed'],
    ['another 502', () => json({ error: { code: 'platform_error', message: 'x' } }, 502), 'vote-failed'],
    [
      'a refusal',
      () => json({ error: { code: 'vote_refused', message: 'x', reason: 'not_holder' } }, 409),
      'not-holder',
    ],
    ['a 401', () => json({ error: { code: 'not_signed_in', message: 'x' } }, 401), 'sign-in-required'],
  ])('takes %s as certain: no re-read', async (_, voteAnswer, expected) => {
    const { fetchImpl, sent } = fakeProxy({
      [`POST ${votePath}`]: voteAnswer,
      [`GET ${fanPollPath}`]: fanPoll(true, [{ id: 'a1', voteStatus: 'accepted' }]),
    });
    await expect(proxyChannel(proxyUrl, fetchImpl).vote('p1', 'a1')).rejects.toMatchObject({
      code: expected,
    });
    expect(routes(sent)).toEqual([`POST ${votePath}`]);
  });
});
