// The two snippets of docs/embedding.md as printed (pinned to the widget's version), on a partner page of another site (http://localhost:<port>) than the proxy
// (http://127.0.0.1:<port>), with the widget loaded from the proxy's /widget/: the cards render, the iframe page is
// framed (its frame-ancestors name the page), and after a vote the card shows the new count within a tick or two
// and never an older one (no browser cache answers a live read).
import { pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { fanToken, voteRequest } from '../../src/sandbox/test-kit.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let page: { url: string; close: () => Promise<void> };
let pollId = '';

/** The snippets of docs/embedding.md with the proxy's URL for `https://polls.club.example`. */
function partnerPage(proxyUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match page</title>
<script type="module" src="${proxyUrl}/widget/v${widgetVersion}/fan-polls.js" data-proxy="${proxyUrl}"></script>
<script type="module" src="${proxyUrl}/widget/v${widgetVersion}/fan-polls-frame.js"></script></head>
<body><h1>Riverside v Harbour</h1>
<fan-poll poll-id="${pollId}" referrer="club-site" campaign="spring" param1="website" param2="match-page" param3="script">
  <a href="https://www.club.example/polls">Vote in the fan poll</a>
</fan-poll>
<fan-poll-frame poll-id="${pollId}" referrer="media-site" campaign="derby" param1="website" param2="match-page" param3="iframe" theme="dark" lang="fr"></fan-poll-frame>
</body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  let proxyUrl = '';
  const server = await listenOnLoopback(
    () => new Response(partnerPage(proxyUrl), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    0,
  );
  // Another site than the proxy's: Chromium resolves localhost to loopback itself.
  page = { url: onAnotherSite(server.url), close: () => closeServer(server.server) };
  stack = await startStackAllowing(page.url, { simulate: false, env: { FAN_POLLS_POLL_CACHE_SECONDS: '1' } });
  proxyUrl = stack.proxy.url;
  const polls = ((await (await fetch(`${proxyUrl}/api/polls?limit=50`)).json()) as { data: Poll[] }).data;
  const open = openRiversidePoll(polls, { marginMs: 120_000 });
  pollId = open.id;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

/** The unique-votes count the card shows ("1,234 votes · ..."). */
async function shownVotes(target: Page): Promise<number> {
  const text = (await target.locator('fan-poll').first().locator('[part="stats"]').textContent()) ?? '';
  const match = /([\d,]+)\s+votes?/.exec(text);
  if (!match?.[1]) throw new Error(`No vote count in "${text}"`);
  return Number(match[1].replace(/,/g, ''));
}

describe('the widget served by the proxy, embedded on another site', () => {
  it('renders both snippets as printed, and shows each new count within two ticks and never an older one', async () => {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const failed: string[] = [];
    tab.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    const thrown: string[] = [];
    tab.on('pageerror', (error) => thrown.push(error.message));
    // Chromium says when it answers a request from its disk cache instead of the network: no live read may be one.
    const network = await tab.context().newCDPSession(tab);
    await network.send('Network.enable');
    const pollReads = new Map<string, string>();
    const fromBrowserCache: string[] = [];
    network.on('Network.requestWillBeSent', (event) => {
      if (event.request.url.includes('/api/polls')) pollReads.set(event.requestId, event.request.url);
    });
    network.on('Network.responseReceived', (event) => {
      const url = pollReads.get(event.requestId);
      // A stale copy answered from the disk cache (what `stale-while-revalidate` lets a browser do) is an old body.
      if (url !== undefined && event.response.fromDiskCache === true) fromBrowserCache.push(url);
    });
    await tab.goto(page.url);
    await tab.locator('fan-poll').first().locator('[part="question"]').waitFor();
    await tab.locator('fan-poll-frame iframe').scrollIntoViewIfNeeded();
    await tab.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    await tab.screenshot({ path: '/tmp/fan-polls-widget-from-proxy.png', fullPage: true });

    // Every count the card shows, sampled as it goes.
    const seen: number[] = [await shownVotes(tab)];
    const sampler = setInterval(() => {
      void shownVotes(tab).then(
        (count) => seen.push(count),
        () => undefined,
      );
    }, 200);
    try {
      const answerId = await tab
        .locator('fan-poll')
        .first()
        .locator('input')
        .first()
        .evaluate((input) => (input as HTMLInputElement).value);
      let expected = seen[0] ?? 0;
      for (const fan of ['alex', 'sam', 'kim']) {
        const vote = await voteRequest(
          stack.sandbox.sandbox,
          fanToken(stack.sandbox.sandbox, fan),
          pollId,
          answerId,
        );
        if (vote.status !== 201) continue;
        expected += 1;
        const votedAt = Date.now();
        // One live tick is 5 s for an open poll; the proxy's copy is at most 1 s fresh plus its refresh.
        await expect.poll(() => shownVotes(tab), { timeout: 12_000, interval: 200 }).toBe(expected);
        expect(Date.now() - votedAt).toBeLessThan(12_000);
      }
      expect(expected).toBeGreaterThan(seen[0] ?? 0);
    } finally {
      clearInterval(sampler);
    }
    await tab.screenshot({ path: '/tmp/fan-polls-widget-from-proxy-after-votes.png', fullPage: true });
    // Never backwards: each sample at least the one before.
    for (let index = 1; index < seen.length; index += 1) {
      expect(seen[index]).toBeGreaterThanOrEqual(seen[index - 1] ?? 0);
    }
    // The new counts came on the page's live stream, not on a read per card and window.
    expect([...pollReads.values()].some((url) => url.includes(pollStreamPath))).toBe(true);
    expect(fromBrowserCache).toEqual([]);
    expect(failed).toEqual([]);
    expect(thrown).toEqual([]);
    await tab.close();
  }, 90_000);

  it('shares one fan session between the card and the banner the proxy serves: sign in on one, out on the other', async () => {
    // A fresh profile: no session cookie yet.
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const tab = await context.newPage();
    await tab.goto(page.url);
    const card = tab.locator('fan-poll').first();
    const banner = tab.frameLocator('fan-poll-frame iframe').locator('fan-poll');
    await tab.locator('fan-poll-frame iframe').scrollIntoViewIfNeeded();
    // The banner page is the proxy's own (another origin than the page): only the host loader's hint reaches it.
    expect(new URL((await tab.locator('fan-poll-frame iframe').getAttribute('src'))!).origin).toBe(
      stack.proxy.url,
    );
    await banner.locator('[part="button"]', { hasText: 'Se connecter pour voter' }).waitFor();
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      card.locator('[part="button"]', { hasText: 'Sign in to vote' }).click(),
    ]);
    await popup.getByLabel('Username').fill('sam');
    await popup.getByLabel('Password').fill('fan-polls');
    await Promise.all([
      popup.waitForEvent('close'),
      popup.getByRole('button', { name: 'Sign in and allow' }).click(),
    ]);
    await card.locator('[part="account"]').waitFor({ timeout: 5000 });
    await banner.locator('[part="account"]').waitFor({ timeout: 5000 });
    expect(await banner.locator('[part="account"]').textContent()).toMatch(/Connecté en tant que/);
    // Sign-out from the banner signs the card on the page out.
    await banner.locator('[part="account"] button', { hasText: 'Se déconnecter' }).click();
    await card.locator('[part="button"]', { hasText: 'Sign in to vote' }).waitFor({ timeout: 5000 });
    expect(await card.locator('[part="account"]').count()).toBe(0);
    await context.close();
  }, 60_000);
});
