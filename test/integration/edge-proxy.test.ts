// The proxy's contract on the Workers runtime: the built edge bundle (`npm run build:edge`'s settings) on workerd
// with Durable Objects on local disk, beside the Node proxy on the same sandbox. Public reads byte for byte the Node
// proxy's, the poll cache refreshed (through `waitUntil`), a sign-in and one vote, the session through a workerd
// restart, and no secret or token in any answer or log line.
import { builtinModules } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnCardPath } from '../../src/contracts/drawn-card-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { canarySecret, canaryTokenPrefix } from '../support/canary.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { fontLicenceFileName } from '../../src/edge/vite.edge.ts';
import { buildEdgeBundle, startWorkerd, type RunningWorkerd } from '../support/workerd.ts';
import { waitUntil } from '../support/wait-until.ts';
import { edgeEnvironment, registerEdgeCallback } from './edge-harness.ts';
import { fans } from '../../src/sandbox/data/fans.ts';
import {
  frameSessionHeaderName,
  frameSessionPath,
  type FrameSessionGrant,
} from '../../src/contracts/frame-session-contract.ts';
import {
  callAt,
  castVote,
  frameSignIn,
  fanHeaders,
  pageOrigin,
  signIn,
  startHarness,
  type Harness,
  type Recorded,
} from './proxy-harness.ts';

let bundle: string;
let node: Harness;
let workerd: RunningWorkerd;
let edge: Harness;
const edgeAnswers: Recorded[] = [];
/** A stand-in for `dist/widget/` (building the widget takes longer than this whole file): served by both proxies. */
const widgetDirectory = mkdtempSync(`${tmpdir()}/fan-polls-edge-widget-`);
mkdirSync(`${widgetDirectory}/embed`);
writeFileSync(`${widgetDirectory}/fan-polls.js`, 'export const widget = "fan-polls";\n');
writeFileSync(`${widgetDirectory}/fan-polls.voting-Ab12Cd34.js`, 'export const part = 1;\n');
writeFileSync(
  `${widgetDirectory}/embed/poll.html`,
  '<!doctype html><meta name="fan-polls-proxy" content="" /><title>Poll</title>\n' +
    '<script type="module" src="./poll.js"></script>\n<main id="content" aria-label="Fan poll"></main>\n',
);

beforeAll(async () => {
  bundle = await buildEdgeBundle();
  node = await startHarness({ pollCacheSeconds: 1, widgetDir: widgetDirectory });
  workerd = await startWorkerd(bundle, edgeEnvironment(node, { FAN_POLLS_POLL_CACHE_SECONDS: '1' }), {
    widgetDirectory,
  });
  registerEdgeCallback(node, workerd);
  // The harness's fan helpers (sign-in, vote) driving the Worker instead of the Node proxy.
  edge = { ...node, call: callAt(workerd.url, edgeAnswers) };
}, 60_000);

afterAll(async () => {
  await workerd.close();
  await node.close();
  rmSync(widgetDirectory, { recursive: true, force: true });
});

/**
 * Asks the Worker for `path` again with the ETag of `answer`: a 304. The poll cache lasts 1 s here, so the poll may
 * have changed meanwhile: a 200 must then carry another ETag, which is asked with at once (at most three times).
 */
async function expectNotModified(path: string, answer: Response): Promise<void> {
  let etag = answer.headers.get('ETag') ?? '';
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const again = await edge.call(path, { headers: { 'If-None-Match': etag } });
    if (again.status === 304) return;
    expect(again.status).toBe(200);
    const changed = again.headers.get('ETag') ?? '';
    expect(changed, 'a 200 to a conditional request carries new content').not.toBe(etag);
    etag = changed;
  }
  throw new Error(`${path}: no 304 in three conditional requests`);
}

/** The fan signed in by the sign-in test, for the tests after it. */
let fanCookie: string | undefined;
/** The votes the platform recorded for `username` in `pollId` (the sandbox's simulated fans vote beside them). */
const votesOf = (pollId: string, username: string) => {
  const userId = fans.find((fan) => fan.username === username)?.userId;
  return node.sandbox.sandbox.state.polls.find(pollId)?.votes.filter((vote) => vote.userId === userId) ?? [];
};

describe('the proxy on workerd', () => {
  it('is one bundle with no Node built-in', () => {
    const code = readFileSync(bundle, 'utf8');
    const builtins = builtinModules.map((name) => name.replace(/[/]/g, '\\/')).join('|');
    const nodeImport = new RegExp(
      `(?:from|import|require)\\s*\\(?\\s*["'](?:node:[\\w/]+|(?:${builtins}))["']`,
    );
    expect(code).not.toMatch(nodeImport);
    expect(code).not.toContain('@redis/client');
  });

  it('carries the licence, the notices of every package it bundles, and the fonts’ licence beside its files', () => {
    const beside = (name: string) => readFileSync(join(dirname(bundle), name), 'utf8');
    expect(beside('LICENSE.txt')).toContain('MIT License');
    const notices = beside('THIRD-PARTY-NOTICES.txt');
    for (const bundled of ['hono ', 'lit ', 'satori ', '@resvg/resvg-wasm ', 'oauth4webapi '])
      expect(notices).toMatch(new RegExp(`^${bundled.replace(/[./]/g, '\\$&')}\\S+ \\(`, 'm'));
    expect(beside(fontLicenceFileName)).toContain('SIL OPEN FONT LICENSE');
  });

  it('answers public reads byte for byte as the Node proxy does, with the same ETag and a 304', async () => {
    for (const path of ['/api/polls?limit=20&orderBy=openAt', '/api/polls?limit=5']) {
      const [fromNode, fromEdge] = await Promise.all([node.call(path), edge.call(path)]);
      expect(fromEdge.status).toBe(200);
      expect(await fromEdge.text()).toBe(await fromNode.text());
      for (const header of [
        'ETag',
        'Cache-Control',
        'CDN-Cache-Control',
        'Access-Control-Allow-Origin',
        'Vary',
      ])
        expect(fromEdge.headers.get(header), header).toBe(fromNode.headers.get(header));
      await expectNotModified(path, fromEdge);
    }
  });

  it('serves the widget’s files as the Node proxy does, and its iframe page with its own URL', async () => {
    for (const path of ['/widget/fan-polls.js', '/widget/fan-polls.voting-Ab12Cd34.js']) {
      const [fromNode, fromEdge] = await Promise.all([node.call(path), edge.call(path)]);
      expect(fromEdge.status).toBe(200);
      expect(await fromEdge.text()).toBe(await fromNode.text());
      for (const header of ['ETag', 'Cache-Control', 'Content-Type', 'Access-Control-Allow-Origin'])
        expect(fromEdge.headers.get(header), header).toBe(fromNode.headers.get(header));
    }
    const page = await edge.call('/widget/embed/poll.html');
    expect(await page.text()).toContain(`content="${workerd.url}"`);
    expect(page.headers.get('Content-Security-Policy')).toContain(`frame-ancestors 'self' ${pageOrigin}`);
    expect((await edge.call('/widget/missing.js')).status).toBe(404);
  });

  it.each([
    ['a banner’s', (poll: Poll) => `poll=${poll.id}`, (poll: Poll) => `poll-id="${poll.id}"`],
    [
      'a current banner’s',
      (poll: Poll) => `current=${poll.partnerId}`,
      (poll: Poll) => `partner-ids="${poll.partnerId}"`,
    ],
  ])(
    'draws %s card into its iframe page as the Node proxy does (Lit SSR on workerd), with a 304',
    async (_banner, queryOf, attributeOf) => {
      const polls = ((await (await node.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
      const poll = openRiversidePoll(polls);
      const path = `/widget/embed/poll.html?${queryOf(poll)}&theme=dark`;
      const [fromNode, fromEdge] = await Promise.all([node.call(path), edge.call(path)]);
      expect(fromEdge.status).toBe(200);
      const edgePage = await fromEdge.text();
      expect(edgePage).toContain('<template shadowroot="open" shadowrootmode="open">');
      expect(edgePage).toContain(attributeOf(poll));
      // The same page but for each proxy's own URL in it.
      expect(edgePage.replaceAll(workerd.url, 'PROXY')).toBe(
        (await fromNode.text()).replaceAll(node.proxy.url, 'PROXY'),
      );
      for (const header of ['Cache-Control', 'CDN-Cache-Control', 'Content-Type'])
        expect(fromEdge.headers.get(header), header).toBe(fromNode.headers.get(header));
      expect(fromEdge.headers.get('Content-Security-Policy')).toMatch(/style-src 'self' 'sha256-/);
      await expectNotModified(path, fromEdge);
    },
  );

  it.each([
    ['a script-tag card', (poll: Poll) => drawnCardPath(poll.id, { lang: 'fr' })],
    [
      'its club’s current card',
      (poll: Poll) => drawnCardPath(null, { partnerIds: poll.partnerId, lang: 'fr' }),
    ],
  ])('draws %s as the Node proxy does (Lit SSR on workerd), gzipped, with a 304', async (_card, pathOf) => {
    const polls = ((await (await node.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
    const path = pathOf(openRiversidePoll(polls));
    const [fromNode, fromEdge] = await Promise.all([node.call(path), edge.call(path)]);
    expect(fromEdge.status).toBe(200);
    const card = await fromEdge.text();
    expect(card).toContain('shadowrootmode="open"');
    expect(card).toContain('lang="fr"');
    expect(card.replaceAll(workerd.url, 'PROXY')).toBe(
      (await fromNode.text()).replaceAll(node.proxy.url, 'PROXY'),
    );
    for (const header of ['Cache-Control', 'CDN-Cache-Control', 'Content-Type', 'Content-Encoding', 'Vary'])
      expect(fromEdge.headers.get(header), header).toBe(fromNode.headers.get(header));
    expect(fromEdge.headers.get('Content-Encoding')).toBe('gzip');
    await expectNotModified(path, fromEdge);
  });

  it('signs a fan in, records one vote, shows it within the freshness window, and keeps the session through a restart', async () => {
    const { cookie, status } = await signIn(edge, { username: 'sam' });
    fanCookie = cookie;
    expect(status).toBe(200);
    expect(cookie).toBeDefined();
    const polls = (
      (await (
        await edge.call('/api/user/polls?limit=50', { cookie: cookie!, headers: fanHeaders })
      ).json()) as {
        data: Poll[];
      }
    ).data;
    const poll = openRiversidePoll(polls, { accept: (candidate) => candidate.userVote === false });
    const answerId = poll.answers[0]?.id ?? '';
    const publicPath = `/api/polls/${poll.id}`;
    const before = await (await edge.call(publicPath)).text();
    expect(votesOf(poll.id, 'sam')).toEqual([]);

    expect((await castVote(edge, cookie!, poll.id, answerId)).status).toBe(201);
    expect((await castVote(edge, cookie!, poll.id, answerId)).status).toBeGreaterThanOrEqual(400);
    expect(votesOf(poll.id, 'sam').map((vote) => vote.answerId)).toEqual([answerId]);

    // Fresh 1 s, then served stale once while the refresh runs on in the Worker's waitUntil.
    const after = await waitUntil(
      async () => {
        const text = await (await edge.call(publicPath)).text();
        return text === before ? undefined : text;
      },
      'the refreshed poll',
      6000,
      200,
    );
    expect(after).not.toBe(before);

    await workerd.restart();
    const session = await edge.call('/api/user/me', { cookie: cookie!, headers: fanHeaders });
    expect(session.status).toBe(200);
  });

  it('hands a sign-in to a session frame only with its verifier, and takes its credential from its own origin', async () => {
    const { verifier, handoff } = await frameSignIn(edge);
    const own = new URL(workerd.url).origin;
    const redeemed = await edge.call(frameSessionPath, {
      method: 'POST',
      origin: own,
      headers: { ...fanHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ handoff, verifier }),
    });
    expect(redeemed.status).toBe(200);
    const { credential } = (await redeemed.json()) as FrameSessionGrant;
    const credentialed = { ...fanHeaders, [frameSessionHeaderName]: credential };
    const me = await edge.call('/api/user/me', {
      origin: null,
      headers: { ...credentialed, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(me.status).toBe(200);
    expect((await edge.call('/api/user/me', { headers: credentialed })).status).toBe(403);
  });

  it('puts no secret or token in any answer or log line', () => {
    expect(edgeAnswers.length).toBeGreaterThan(5);
    for (const text of [...edgeAnswers.map((answer) => answer.headers + answer.body), ...workerd.output]) {
      expect(text).not.toContain(canarySecret);
      expect(text).not.toContain(canaryTokenPrefix);
    }
  });

  it('opens the fans’ breaker after three platform failures in a row: the platform sees no fourth request', async () => {
    const faults = node.sandbox.sandbox.state.faults;
    faults.failNext(20, 503);
    const statuses: number[] = [];
    const retryAfters: (string | null)[] = [];
    for (let call = 0; call < 6; call += 1) {
      const answer = await edge.call('/api/user/me', { cookie: fanCookie!, headers: fanHeaders });
      statuses.push(answer.status);
      retryAfters.push(answer.headers.get('Retry-After'));
    }
    // Three requests reached the platform (each answered 503); the other calls were held by the proxy.
    expect(faults.settings.errorNext).toBe(17);
    faults.clear();
    expect(statuses.every((status) => status >= 500)).toBe(true);
    expect(Number(retryAfters.at(-1))).toBeGreaterThanOrEqual(1);
    // Held for a second (each call meanwhile answered by the proxy alone), then one trial request closes it again.
    await waitUntil(
      async () =>
        (await edge.call('/api/user/me', { cookie: fanCookie!, headers: fanHeaders })).status === 200,
      'the breaker to close again',
      10_000,
    );
    expect((await edge.call('/api/user/me', { cookie: fanCookie!, headers: fanHeaders })).status).toBe(200);
  });

  it('limits sign-in starts per client address across isolates: past 20 a minute, 429 with Retry-After', async () => {
    const login = (address: string) =>
      edge.call(`/auth/login?origin=${encodeURIComponent(pageOrigin)}`, {
        origin: null,
        headers: { 'CF-Connecting-IP': address },
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt += 1) statuses.push((await login('203.0.113.9')).status);
    expect(statuses.every((status) => status === 302)).toBe(true);
    const refused = await login('203.0.113.9');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect((await login('198.51.100.4')).status).toBe(302);
    // The count lives in a Durable Object: a restarted isolate refuses the same address.
    await workerd.restart();
    expect((await login('203.0.113.9')).status).toBe(429);
  });

  // Last: the hold refuses every platform call for its Retry-After.
  it('holds every platform call after a 429, and so does a fresh isolate after a restart (the hold is shared)', async () => {
    const faults = node.sandbox.sandbox.state.faults;
    faults.throttleNext(1, 30);
    const throttled = await edge.call('/api/polls?limit=3');
    expect(throttled.status).not.toBe(200);
    faults.clear();
    const held = await edge.call('/api/polls?limit=4');
    expect(held.status).not.toBe(200);
    expect(Number(held.headers.get('Retry-After'))).toBeGreaterThan(20);

    await workerd.restart();
    // A fresh isolate adopts the shared hold in the background: at most its first call goes through, and every call
    // from the first one refused on is refused.
    const statuses: number[] = [];
    await waitUntil(
      async () => {
        statuses.push((await edge.call(`/api/polls?limit=${String(6 + statuses.length)}`)).status);
        return statuses.at(-1) !== 200;
      },
      'the fresh isolate to hold platform calls',
      10_000,
    );
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(1);
    expect((await edge.call(`/api/polls?limit=${String(6 + statuses.length)}`)).status).not.toBe(200);
  });
});
