// The page's live stream, in Chromium on the demo page (cards, a list and a banner, on another site than the proxy),
// with the proxy's freshness window set to 1 s (`pollCacheSeconds`): the stream's refresh follows that window, the
// cards' own reads do not (an open poll is read at a fixed pace, `defaultPace.openMs`, 5 s). After first paint the page
// and its banner's frame hold one stream each and read no poll for three windows and at least one read pace after their
// last read (polling, once per window or once per pace, would have read), and each change at the sandbox shows on
// every card within the window plus a margin (3 s), asserted against the sandbox's tally. With the stream blocked
// (aborted by the browser), the cards fall back to reading: at most one read per document per read pace over three
// paces, and the change still shows. The blocked page opens first, so that its three paces pass while the stream's
// case runs.
import type { BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import { pollsPath } from '../../src/contracts/proxy-paths.ts';
import { parsePollList } from '../../src/platform/parse.ts';
import { defaultPace } from '../../src/polls/poll-pace.ts';
import { viewPoll } from '../../src/polls/poll-view.ts';
import { apiRequest, applicationToken } from '../../src/sandbox/test-kit.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { ensureWidgetBuilt, launchChromium, startWidgetStack, type WidgetStack } from './widget-stack.ts';

/** The proxy's freshness window (`pollCacheSeconds`): how often the stream's refresher reads a watched poll. */
const freshSeconds = 1;
const freshMs = freshSeconds * 1000;
/** How often a card reads an open poll that no stream carries: a pace of its own, whatever the proxy's window. */
const readPaceMs = defaultPace.openMs;
const windows = 3;
/** Beyond each deadline: a loaded 2-core runner (the page's timers, the proxy's refresh, Playwright's events). */
const marginMs = 3000;

let stack: WidgetStack;
let browser: Awaited<ReturnType<typeof launchChromium>>;
/** The demo page with its stream blocked, from its first blocked streams on (its reads before `from`: first paint). */
let blocked: { context: BrowserContext; page: Page; traffic: Traffic; from: number; readsBefore: number };

beforeAll(async () => {
  ensureWidgetBuilt();
  [stack, browser] = await Promise.all([
    startWidgetStack({ crossSite: true, simulate: false, pollCacheSeconds: freshSeconds }),
    launchChromium(),
  ]);
  stack.sandbox.sandbox.reset();
  const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
  await context.route(`**${pollStreamPath}?**`, (route) => route.abort());
  const { page, traffic } = await openDemo(context);
  // The first reads are the page's first paint; from the first blocked stream of each document on, the fallback's.
  await vi.waitFor(
    () => {
      expect(traffic.streams.length).toBeGreaterThanOrEqual(2);
    },
    { timeout: 10_000, interval: 100 },
  );
  blocked = { context, page, traffic, from: Date.now(), readsBefore: traffic.reads.length };
}, 60_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
});

/** The poll as a card views it, from the platform's tally (the project's own rounding, as every card shows). */
async function sandboxView(pollId: string): Promise<ReturnType<typeof viewPoll>> {
  const { sandbox } = stack.sandbox;
  const answer = await apiRequest(sandbox, `/polls/1.0.8/polls?ids[]=${pollId}`, applicationToken(sandbox));
  return viewPoll(parsePollList(await answer.json())[0]!, Date.now());
}

async function sandboxPercentages(pollId: string): Promise<number[]> {
  return (await sandboxView(pollId)).answers.map((each) => each.percentage);
}

/** The polls of the page's own cards (not the banner's) that can still change: what its stream must carry. */
async function pageStreamIds(page: Page): Promise<string[]> {
  const ids = await page
    .locator('fan-poll')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('poll-id') ?? ''));
  const phases = await Promise.all(ids.map(async (id) => (await sandboxView(id)).phase));
  return ids.filter((_id, index) => phases[index] !== 'disclosed' && phases[index] !== 'cancelled');
}

/** The open one of this document's streams, if it carries all of `ids`. */
function streamCarrying(traffic: Traffic, document: string, ids: readonly string[]): boolean {
  return [...traffic.openStreams.values()].some(
    (stream) =>
      stream.document === document &&
      ids.every((id) => stream.url.searchParams.getAll('ids[]').includes(id.toLowerCase())),
  );
}

/** The open ones of these polls: only they change. */
async function openPolls(pollIds: readonly string[]): Promise<string[]> {
  const phases = await Promise.all(pollIds.map(async (id) => (await sandboxView(id)).phase));
  return pollIds.filter((_id, index) => phases[index] === 'open');
}

function shownPercentages(card: Locator): Promise<number[]> {
  return card
    .locator('[part~="answer"] .percent')
    .evaluateAll((spans) => spans.map((span) => Number.parseFloat(span.textContent.replace(/[^\d.]/g, ''))));
}

interface Traffic {
  /** Stream requests, by document (`page` or `banner`). */
  readonly streams: string[];
  /** Those still open (neither finished nor failed): their document and URL. */
  readonly openStreams: Map<object, { readonly document: string; readonly url: URL }>;
  /** Poll reads (`/api/polls?...`, `/api/polls/<id>`), with the document that sent each and when. */
  readonly reads: { readonly document: string; readonly at: number }[];
}

/** Records every stream request and poll read of the page and its frames. */
function recordTraffic(page: Page): Traffic {
  const traffic: Traffic = { streams: [], openStreams: new Map(), reads: [] };
  page.context().on('request', (request) => {
    const url = new URL(request.url());
    if (!url.href.startsWith(stack.proxy.url)) return;
    const document = documentOf(request.frame());
    if (url.pathname === pollStreamPath) {
      traffic.streams.push(document);
      traffic.openStreams.set(request, { document, url });
    } else if (url.pathname === pollsPath || /^\/api\/polls\/[0-9a-f-]{36}$/.test(url.pathname))
      traffic.reads.push({ document, at: Date.now() });
  });
  const ended = (request: object) => traffic.openStreams.delete(request);
  page.context().on('requestfailed', ended);
  page.context().on('requestfinished', ended);
  return traffic;
}

function documentOf(frame: Frame): string {
  return frame.parentFrame() === null ? 'page' : 'banner';
}

/** Every card of the page and of its banner's frame that shows live percentages, with its poll id. */
async function liveCards(page: Page): Promise<{ card: Locator; pollId: string }[]> {
  const cards: { card: Locator; pollId: string }[] = [];
  for (const scope of [page.locator('body'), page.locator('iframe').first().contentFrame().locator('body')]) {
    const all = scope.locator('fan-poll');
    for (let index = 0; index < (await all.count()); index += 1) {
      const card = all.nth(index);
      const pollId = await card.getAttribute('poll-id');
      if (pollId !== null && (await shownPercentages(card)).length > 0) cards.push({ card, pollId });
    }
  }
  return cards;
}

/**
 * Simulated fans vote until the shares of every open poll of `all` moved (whole-number shares may not at once); the
 * tallies of all of them.
 */
async function changeShares(all: readonly string[]): Promise<Map<string, number[]>> {
  const pollIds = await openPolls(all);
  const before = new Map(
    await Promise.all(pollIds.map(async (id) => [id, await sandboxPercentages(id)] as const)),
  );
  for (let round = 0; round < 20; round += 1) {
    stack.sandbox.sandbox.simulation.simulateVotes(10);
    const after = new Map(
      await Promise.all(pollIds.map(async (id) => [id, await sandboxPercentages(id)] as const)),
    );
    if (pollIds.every((id) => after.get(id)!.join() !== before.get(id)!.join()))
      return new Map(await Promise.all(all.map(async (id) => [id, await sandboxPercentages(id)] as const)));
  }
  throw new Error('The shares did not move');
}

/** Every card shows its poll's shares as the sandbox tallies them, within `timeoutMs`. */
async function everyCardShows(
  cards: readonly { card: Locator; pollId: string }[],
  tally: Map<string, number[]>,
  timeoutMs: number,
): Promise<void> {
  await Promise.all(
    cards.map(({ card, pollId }) =>
      expect
        .poll(() => shownPercentages(card), { timeout: timeoutMs, interval: 100 })
        .toEqual(tally.get(pollId)),
    ),
  );
}

async function openDemo(context: BrowserContext): Promise<{ page: Page; traffic: Traffic }> {
  const page = await context.newPage();
  const traffic = recordTraffic(page);
  await page.goto(stack.demo.url);
  await page.locator('fan-poll').first().locator('[part~="answer"] .percent').first().waitFor();
  await page
    .locator('iframe')
    .first()
    .contentFrame()
    .locator('fan-poll [part~="answer"] .percent')
    .first()
    .waitFor();
  // The list of earlier polls loads when it comes into view: its cards join the page's store (and stream).
  await page.locator('fan-poll-list').scrollIntoViewIfNeeded();
  await page.locator('fan-poll-list fan-poll [part~="answer"]').first().waitFor();
  return { page, traffic };
}

describe('the page’s live stream (Chromium, demo page on another site)', () => {
  it(
    'holds two streams and reads no poll for three windows, and shows each change on every card within the refresh window',
    { timeout: 60_000 },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
      const { page, traffic } = await openDemo(context);
      // Both documents' streams are open once their pacers have taken over from the first read, the page's with the
      // list's polls too (its cards join when it comes into view).
      const carried = await pageStreamIds(page);
      await expect.poll(() => streamCarrying(traffic, 'page', carried), { timeout: 10_000 }).toBe(true);
      await expect
        .poll(() => [...traffic.openStreams.values()].map((stream) => stream.document).sort(), {
          timeout: 10_000,
        })
        .toEqual(['banner', 'page']);
      const streamsAfterPaint = traffic.streams.length;
      const cards = await liveCards(page);
      expect(cards.length).toBeGreaterThanOrEqual(2);
      const pollIds = [...new Set(cards.map((each) => each.pollId))];
      const readsAfterPaint = traffic.reads.length;
      const from = Date.now();
      // Three windows, and a read pace and a window past the page's last read: a card that read beside the stream
      // would have read by then.
      const lastReadAt = traffic.reads.at(-1)?.at ?? from;
      const until = Math.max(from + windows * freshMs, lastReadAt + readPaceMs + freshMs);
      const delays: number[] = [];
      // Changes until then, each awaited on every card: the period is filled with them.
      while (Date.now() < until) {
        const tally = await changeShares(pollIds);
        const changedAt = Date.now();
        await everyCardShows(cards, tally, freshMs + marginMs);
        delays.push(Date.now() - changedAt);
      }
      const periodMs = Date.now() - from;
      console.log('STREAM_PAGE', {
        cards: cards.length,
        periodMs,
        sinceLastReadMs: Date.now() - lastReadAt,
        pollReads: traffic.reads.length - readsAfterPaint,
        streams: traffic.streams,
        delays,
      });
      expect(traffic.reads.length - readsAfterPaint).toBe(0);
      expect(traffic.streams.length).toBe(streamsAfterPaint);
      expect([...traffic.openStreams.values()].map((stream) => stream.document).sort()).toEqual([
        'banner',
        'page',
      ]);
      await page.screenshot({ path: screenshotPath('live-stream-page.png'), fullPage: true });
      await context.close();
    },
  );

  it(
    'falls back to reading once per read pace per document when the stream is blocked, and still shows the change',
    { timeout: 60_000 },
    async () => {
      const { context, page, traffic, from, readsBefore } = blocked;
      const cards = await liveCards(page);
      const pollIds = [...new Set(cards.map((each) => each.pollId))];
      const tally = await changeShares(pollIds);
      // The next read a pace on, of a copy the proxy refreshed within its window.
      await everyCardShows(cards, tally, readPaceMs + freshMs + marginMs);
      // Then on to three read paces in all, waiting on the page's own reads.
      await expect
        .poll(() => Date.now() - from >= windows * readPaceMs && traffic.reads.length > readsBefore, {
          timeout: windows * readPaceMs + marginMs,
          interval: 250,
        })
        .toBe(true);
      const periodMs = Date.now() - from;
      const reads = traffic.reads.slice(readsBefore);
      const perDocument = (document: string) => reads.filter((read) => read.document === document).length;
      console.log('FALLBACK_PAGE', {
        periodMs,
        page: perDocument('page'),
        banner: perDocument('banner'),
        streamAttempts: traffic.streams.length,
      });
      const allowed = Math.ceil(periodMs / readPaceMs) + 1;
      expect(perDocument('page')).toBeLessThanOrEqual(allowed);
      expect(perDocument('banner')).toBeLessThanOrEqual(allowed);
      await page.screenshot({ path: screenshotPath('live-stream-fallback.png'), fullPage: true });
      await context.close();
    },
  );
});
