// The proxy channel on a page of another origin than the proxy's, where the browser drops the proxy's cookie: the
// card says its next tap signs in for this page, adds the session frame, and that sign-in carries the frame's
// challenge; its code goes to the frame, never to the cookie handoff, and the page's calls go through the frame.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { cardDetails } from '../fan-poll/details-part.ts';
import { messageFrom } from '../test-support/message-from.ts';
import type { FrameSession } from './frame-session-host.ts';
import { proxyChannel } from './proxy-channel.ts';
import { frameSessionOffered } from './cookie-refusal.ts';

const proxyUrl = 'https://polls.club.example';
const challenge = 'c'.repeat(43);
const firstCode = 'a'.repeat(43);
const frameCode = 'b'.repeat(43);

const frame = {
  redeem: vi.fn((_handoff: string) => Promise.resolve(true)),
  call: vi.fn((path: string) =>
    Promise.resolve(path === proxyRoutes.session ? { signedIn: true, userId: 'u1' } : undefined),
  ),
  challenge: () => challenge,
} satisfies FrameSession;
const openFrameSession = vi.fn((_proxyUrl: string) => Promise.resolve(frame as FrameSession));
vi.mock('./frame-session-host.ts', () => ({ openFrameSession }));

/** Waits for the channel's frame: the host's chunk imported, the frame opened, and the channel told. */
async function frameOpened(): Promise<void> {
  await vi.waitFor(() => {
    expect(openFrameSession).toHaveBeenCalledWith(proxyUrl);
  });
  // The channel's own continuation was queued on this promise first, so it has run when this await resumes.
  await openFrameSession.mock.results.at(-1)?.value;
}

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

/** A page whose popup and proxy are fakes: the proxy takes every code, and the browser drops its cookie. */
async function refusingPage(proxy = proxyUrl) {
  // The card's details chunk, which a card imports as its voting starts: the popup's follow-up is in it.
  await cardDetails.load();
  const popup = { closed: false } as unknown as Window;
  const opened: string[] = [];
  vi.spyOn(window, 'open').mockImplementation((url) => {
    opened.push(String(url));
    return popup;
  });
  const sent: string[] = [];
  const fetchImpl = (input: string, init: RequestInit = {}) => {
    const path = new URL(input).pathname;
    sent.push(`${init.method ?? 'GET'} ${path}`);
    // The proxy took the code and set a cookie; the browser dropped it.
    const body = path === proxyRoutes.session ? { signedIn: false } : { signedIn: true, userId: 'u1' };
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200 }));
  };
  /** A sign-in from the page's card whose pop-up ends with `handoff`. */
  const signIn = (channel: ReturnType<typeof proxyChannel>, handoff: string) => {
    const signedIn = channel.signIn({});
    messageFrom(popup, proxy, { type: 'fan-polls:sign-in', ok: true, userId: 'u1', handoff });
    return signedIn;
  };
  return { opened, sent, fetchImpl, signIn };
}

describe('proxy channel where the browser refuses the proxy’s cookie on the page', () => {
  it('offers a sign-in for this page, then signs in through the session frame, whose code the page never redeems', async () => {
    const { opened, sent, fetchImpl, signIn } = await refusingPage();
    const channel = proxyChannel(proxyUrl, fetchImpl);
    await expect(signIn(channel, firstCode)).rejects.toMatchObject({
      code: 'cookies-blocked',
      cause: frameSessionOffered,
    });
    expect(new URL(opened[0] ?? '').searchParams.has('frame_challenge')).toBe(false);
    await frameOpened();

    // The fan's next tap: a sign-in carrying the frame's challenge, whose code the frame redeems.
    await expect(signIn(channel, frameCode)).resolves.toBe(true);
    expect(new URL(opened.at(-1) ?? '').searchParams.get('frame_challenge')).toBe(challenge);
    expect(frame.redeem).toHaveBeenCalledWith(frameCode);
    // The frame's code went to the frame only; the session is read through the frame from now on.
    expect(sent.filter((each) => each === `POST ${proxyRoutes.sessionHandoff}`)).toHaveLength(1);
    const before = sent.length;
    const pollId = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';
    await channel.fanView(pollId).catch(() => undefined);
    expect(frame.call).toHaveBeenCalledWith(proxyRoutes.userPoll(pollId), undefined);
    expect(sent).toHaveLength(before);

    // The page remembers the refusal: a channel of a later visit opens the frame before the first tap.
    openFrameSession.mockClear();
    proxyChannel(proxyUrl, fetchImpl);
    await frameOpened();
  });

  it('says the plain sentence when the frame it asked for never came (a page whose CSP refuses it)', async () => {
    openFrameSession.mockReturnValueOnce(new Promise<FrameSession>(() => undefined));
    // Another proxy than the first test's, whose session this page already reads through a frame.
    const otherProxy = 'https://polls.other-club.example';
    const { opened, fetchImpl, signIn } = await refusingPage(otherProxy);
    const channel = proxyChannel(otherProxy, fetchImpl);
    await expect(signIn(channel, firstCode)).rejects.toMatchObject({ cause: frameSessionOffered });
    const again: unknown = await signIn(channel, frameCode).catch((error: unknown) => error);
    expect(again).toMatchObject({ code: 'cookies-blocked' });
    expect((again as Error).cause).toBeUndefined();
    expect(new URL(opened.at(-1) ?? '').searchParams.has('frame_challenge')).toBe(false);
  });
});
