// A session held in the memory of a frame of the proxy's origin: the sign-in carries the frame's SHA-256 challenge,
// and only the frame's verifier, sent from the proxy's own origin, redeems the code for a credential the frame keeps.
// Hostile cases: a page script holding the code (a wrong verifier, a replay, the page's own origin, the cookie
// handoff), and a credential sent from another origin or forged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  frameChallengeOf,
  frameSessionHeaderName,
  frameSessionPath,
  frameVerifier,
  type FrameSessionGrant,
} from '../../src/contracts/frame-session-contract.ts';
import type { ProxyErrorBody, SessionStatus } from '../../src/contracts/proxy-contract.ts';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { canaryTokenPrefix } from '../support/canary.ts';
import {
  callbackResultOf,
  fanHeaders as csrf,
  frameSignIn as frameSignInAt,
  pageOrigin,
  signIn,
  startHarness,
} from './proxy-harness.ts';
import type { Harness } from './proxy-harness.ts';

const samUserId = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c02';

let harness: Harness;
/** The proxy's own origin: its frame page's. */
const ownOrigin = () => new URL(harness.proxy.url).origin;
beforeAll(
  async () => (harness = await startHarness({ allowedOrigins: [pageOrigin], signInPerMinute: 10_000 })),
);
afterAll(() => harness.close());

const errorCode = async (response: Response) => ((await response.json()) as ProxyErrorBody).error.code;
const json = { ...csrf, 'Content-Type': 'application/json' };
const frameSignIn = () => frameSignInAt(harness);

function redeem(handoff: string, verifier: string, origin: string | null = ownOrigin()) {
  return harness.call(frameSessionPath, {
    method: 'POST',
    origin,
    headers: json,
    body: JSON.stringify({ handoff, verifier }),
  });
}

/** A request of the frame's page: same origin, its credential in the header. */
function fromFrame(path: string, credential: string, init: RequestInit = {}) {
  return harness.call(path, {
    ...init,
    origin: null,
    headers: { ...json, 'Sec-Fetch-Site': 'same-origin', [frameSessionHeaderName]: credential },
  });
}

describe('a session in a frame’s memory', () => {
  it('the frame’s verifier redeems the code once; its credential reads the session and the fan’s routes', async () => {
    const { verifier, handoff } = await frameSignIn();
    const redeemed = await redeem(handoff, verifier);
    expect(redeemed.status).toBe(200);
    expect(redeemed.headers.getSetCookie()).toEqual([]);
    const text = await redeemed.text();
    expect(text).not.toContain(canaryTokenPrefix);
    const grant = JSON.parse(text) as FrameSessionGrant;
    expect(grant).toMatchObject({ signedIn: true, userId: samUserId });

    const session = await fromFrame(proxyRoutes.session, grant.credential);
    expect((await session.json()) as SessionStatus).toEqual({ signedIn: true, userId: samUserId });
    expect((await fromFrame(proxyRoutes.currentUser, grant.credential)).status).toBe(200);

    const replayed = await redeem(handoff, verifier);
    expect(replayed.status).toBe(400);
    expect(await errorCode(replayed)).toBe('invalid_handoff');

    // Sign-out with the credential ends it.
    expect((await fromFrame(proxyRoutes.signOut, grant.credential, { method: 'POST' })).status).toBe(204);
    expect((await fromFrame(proxyRoutes.currentUser, grant.credential)).status).toBe(401);
  });

  it('a wrong verifier opens nothing, and spends the code', async () => {
    const { verifier, handoff } = await frameSignIn();
    const wrong = await redeem(handoff, frameVerifier());
    expect(wrong.status).toBe(400);
    expect(await errorCode(wrong)).toBe('invalid_handoff');
    expect(await wrong.text()).not.toContain('credential');
    const late = await redeem(handoff, verifier);
    expect(late.status).toBe(400);
  });

  it('a code without a challenge never redeems for a frame', async () => {
    const { page } = await signIn(harness, { handoff: true });
    const { result } = callbackResultOf(page);
    if (!result.ok || result.handoff === undefined) throw new Error('No handoff code.');
    const refused = await redeem(result.handoff, frameVerifier());
    expect(refused.status).toBe(400);
    expect(await errorCode(refused)).toBe('invalid_handoff');
  });

  it('a page script holding the code and even the verifier gets nothing from its own origin', async () => {
    const { verifier, handoff } = await frameSignIn();
    const fromPage = await redeem(handoff, verifier, pageOrigin);
    expect(fromPage.status).toBe(403);
    expect(await errorCode(fromPage)).toBe('origin_not_allowed');
    const noOrigin = await redeem(handoff, verifier, null);
    expect(noOrigin.status).toBe(403);
  });

  it('a frame’s code is refused by the cookie handoff (a page script cannot ride it into a cookie)', async () => {
    const { handoff } = await frameSignIn();
    const cookieHandoff = await harness.call(proxyRoutes.sessionHandoff, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ handoff }),
    });
    expect(cookieHandoff.status).toBe(400);
    expect(await errorCode(cookieHandoff)).toBe('invalid_handoff');
    expect(cookieHandoff.headers.getSetCookie()).toEqual([]);
  });

  it('the credential counts from the proxy’s own origin only; CORS never lets a page send it; a forged one is nobody', async () => {
    const { verifier, handoff } = await frameSignIn();
    const grant = (await (await redeem(handoff, verifier)).json()) as FrameSessionGrant;
    const fromPage = await harness.call(proxyRoutes.currentUser, {
      headers: { ...csrf, [frameSessionHeaderName]: grant.credential },
    });
    expect(fromPage.status).toBe(403);
    expect(await errorCode(fromPage)).toBe('origin_not_allowed');
    const crossSite = await harness.call(proxyRoutes.currentUser, {
      origin: null,
      headers: { ...csrf, 'Sec-Fetch-Site': 'cross-site', [frameSessionHeaderName]: grant.credential },
    });
    expect(crossSite.status).toBe(403);

    const preflight = await harness.call(proxyRoutes.currentUser, {
      method: 'OPTIONS',
      headers: {
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': frameSessionHeaderName.toLowerCase(),
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).not.toContain(
      frameSessionHeaderName.toLowerCase(),
    );

    const [id] = grant.credential.split('~');
    const forged = await fromFrame(proxyRoutes.currentUser, `${id ?? ''}~${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
  });

  it('refuses a malformed challenge, or one on a sign-in without a pop-up', async () => {
    const login = (query: Record<string, string>) =>
      harness.call(
        `${proxyRoutes.signIn}?${new URLSearchParams({ origin: pageOrigin, ...query }).toString()}`,
        {
          origin: null,
        },
      );
    expect((await login({ handoff: '1', frame_challenge: 'short' })).status).toBe(400);
    expect((await login({ frame_challenge: await frameChallengeOf(frameVerifier()) })).status).toBe(400);
    const withReturn = await login({
      handoff: '1',
      return: `${pageOrigin}/match`,
      frame_challenge: await frameChallengeOf(frameVerifier()),
    });
    expect(withReturn.status).toBe(400);
  });
});
