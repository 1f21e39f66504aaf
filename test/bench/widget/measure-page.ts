// One cold load of one article page in Chromium, with the network throttled through the DevTools protocol: when the
// cards show data and can vote, the round trips, the bytes and the layout shift.
import type { Browser, Page } from 'playwright-core';
import { proxyRoutes } from '../../../src/contracts/proxy-contract.ts';

/** DevTools' Fast 4G: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
export const fast4g = {
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
} as const;

export interface PageFigures {
  /** ms from navigation start until the first card shows its poll (a banner: its card's ready event; a peer: its frame's content). */
  readonly dataMs: number;
  /**
   * Where the time to data goes, on the page's clock: when the last script the page loaded before its first card
   * showed data finished arriving (the element code; undefined: none), and when its first poll read did (undefined:
   * none, as a server-rendered card or a banner, whose read is in its frame).
   */
  readonly codeDoneMs: number | undefined;
  readonly readDoneMs: number | undefined;
  /** ms until the last card that showed data did (the same as `dataMs` for one card). */
  readonly lastDataMs: number;
  readonly cardsWithData: number;
  /** ms until the first open card's action button works (undefined: no open card). */
  readonly interactiveMs: number | undefined;
  /** Sequential round trips after the HTML until data, and until interactive. */
  readonly roundTripsToData: number;
  readonly roundTripsToInteractive: number | undefined;
  /** Bytes on the wire after the HTML until the end of the run (widget code, and everything). */
  readonly codeBytes: number;
  readonly totalBytes: number;
  readonly requests: number;
  readonly layoutShift: number;
  /** The first card's height once it shows data (px). */
  readonly cardHeight: number | undefined;
  /**
   * A banner of this build: ms from the page's navigation start until its frame's card first showed its poll (the
   * same watch as a page's cards, in the frame, on the page's clock), and the round trips until then.
   */
  readonly framePollMs?: number;
  readonly roundTripsToFramePoll?: number;
}

interface Request {
  readonly url: string;
  readonly start: number;
  end?: number;
  bytes?: number;
}

/**
 * Watches the cards from the first frame on: when each shows its poll and when its button works, and the layout
 * shifts. A string of plain JavaScript: the page runs it before its own scripts.
 */
const watchCards = `(() => {
  const bench = { cards: [], frameReady: 0, shift: 0 };
  window.bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) bench.shift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('fan-poll-ready', (event) => {
    if (event.target.localName === 'fan-poll-frame') bench.frameReady ||= performance.now();
  });
  // A peer's stand-in frame says when it shows its content (ms since 1970: another document's clock).
  addEventListener('message', (event) => {
    if (typeof event.data?.benchPeerReady === 'number')
      bench.frameReady ||= event.data.benchPeerReady - performance.timeOrigin;
  });
  const tick = (now) => {
    document.querySelectorAll('fan-poll').forEach((card, index) => {
      const seen = (bench.cards[index] ??= {});
      const root = card.shadowRoot;
      if (!root) return;
      if (seen.data === undefined && root.querySelector('[part="question"]')) {
        seen.data = now;
        seen.height = card.getBoundingClientRect().height;
      }
      const button = root.querySelector('[part="button"]');
      // A card drawn by the proxy shows its button before its element code ran: it works once the card is upgraded.
      if (seen.data !== undefined && seen.interactive === undefined && button && card.matches(':defined') && button.getAttribute('aria-disabled') !== 'true')
        seen.interactive = now;
    });
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

export async function measurePage(
  browser: Browser,
  url: string,
  waitFor: { readonly banner: boolean; readonly interactive: boolean },
  screenshot?: string,
): Promise<PageFigures> {
  // A new context: an empty cache and no open connections (the iframe may reuse what its page loaded, as in life).
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...fast4g });
  const requests = new Map<string, Request>();
  cdp.on('Network.requestWillBeSent', (event) => {
    if (!requests.has(event.requestId))
      requests.set(event.requestId, { url: event.request.url, start: event.timestamp });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) Object.assign(request, { end: event.timestamp, bytes: event.encodedDataLength });
  });
  await page.addInitScript({ content: watchCards });
  await page.goto(url);
  type Bench = {
    cards: { data?: number; interactive?: number; height?: number }[];
    frameReady: number;
    shift: number;
  };
  const read = () => page.evaluate(() => (window as unknown as { bench: Bench }).bench);
  await page.waitForFunction(
    ({ banner, interactive }) => {
      const bench = (window as unknown as { bench: Bench }).bench;
      const first = bench.cards[0];
      if (banner) return bench.frameReady > 0;
      return first?.data !== undefined && (!interactive || first.interactive !== undefined);
    },
    waitFor,
    { timeout: 30_000 },
  );
  // Late shifts (a part arriving, a banner resizing) count too.
  await page.waitForTimeout(2000);
  const bench = await read();
  const arrivals = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => ({
      path: new URL(entry.name).pathname,
      end: (entry as PerformanceResourceTiming).responseEnd,
    })),
  );
  const framePollMs = waitFor.banner ? await framePollOf(page) : undefined;
  if (screenshot) await page.screenshot({ path: screenshot });
  await context.close();

  const ordered = [...requests.values()]
    .filter((request) => request.end !== undefined)
    .sort((a, b) => a.start - b.start);
  const html = ordered[0]!;
  const msOf = (timestamp: number) => (timestamp - html.start) * 1000;
  const depth = new Map<Request, number>([[html, 0]]);
  for (const request of ordered.slice(1)) {
    let deepest = 0;
    for (const [earlier, level] of depth)
      if (earlier.end! <= request.start) deepest = Math.max(deepest, level);
    depth.set(request, deepest + 1);
  }
  const roundTripsUntil = (ms: number) =>
    Math.max(0, ...[...depth].filter(([request]) => msOf(request.end!) <= ms + 1).map(([, level]) => level));
  const datas = bench.cards.map((card) => card.data).filter((ms): ms is number => ms !== undefined);
  const dataMs = waitFor.banner ? bench.frameReady : Math.min(...datas);
  const interactiveMs = waitFor.interactive ? bench.cards[0]?.interactive : undefined;
  const after = ordered.slice(1);
  const before = arrivals.filter((arrival) => arrival.end <= dataMs);
  const scripts = before.filter((arrival) => arrival.path.endsWith('.js')).map((arrival) => arrival.end);
  return {
    dataMs,
    codeDoneMs: scripts.length === 0 ? undefined : Math.max(...scripts),
    readDoneMs: before.find((arrival) => arrival.path.endsWith(proxyRoutes.polls))?.end,
    lastDataMs: waitFor.banner ? bench.frameReady : Math.max(...datas),
    cardsWithData: waitFor.banner ? 1 : datas.length,
    interactiveMs,
    roundTripsToData: roundTripsUntil(dataMs),
    roundTripsToInteractive: interactiveMs === undefined ? undefined : roundTripsUntil(interactiveMs),
    codeBytes: after
      .filter((r) => /\/(widget|peers)\/.*\.js$/.test(new URL(r.url).pathname))
      .reduce((sum, r) => sum + r.bytes!, 0),
    totalBytes: after.reduce((sum, r) => sum + r.bytes!, 0),
    requests: after.length,
    layoutShift: bench.shift,
    cardHeight: bench.cards[0]?.height,
    ...(framePollMs === undefined
      ? {}
      : { framePollMs, roundTripsToFramePoll: roundTripsUntil(framePollMs) }),
  };
}

/** When the banner's frame (this build's iframe page) first showed its card's poll, on the page's clock. */
async function framePollOf(page: Page): Promise<number | undefined> {
  const frame = page.frames().find((each) => each.url().includes('/embed/poll.html'));
  if (!frame) return undefined;
  const clock = () => performance.timeOrigin;
  const inFrame = await frame.evaluate(() => ({
    origin: performance.timeOrigin,
    data: (window as unknown as { bench?: { cards: { data?: number }[] } }).bench?.cards[0]?.data,
  }));
  if (inFrame.data === undefined) return undefined;
  return inFrame.origin + inFrame.data - (await page.evaluate(clock));
}
