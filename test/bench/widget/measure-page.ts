// One cold load of one article page in Chromium, with the network throttled through the DevTools protocol (and, in the
// mobile profile, the CPU and a touch viewport): when the cards show data and can vote, the round trips, the bytes, the
// layout shift, the Total Blocking Time and the first tap's latency.
import type { Browser, Page } from 'playwright-core';
import { proxyRoutes } from '../../../src/contracts/proxy-contract.ts';

/** DevTools' Fast 4G: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
export const fast4g = {
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
} as const;

/** How the page is loaded: a desktop CPU at a phone's width, or a phone as Lighthouse sees it. */
export interface BenchProfile {
  readonly name: 'desktop' | 'mobile';
  readonly viewport: { readonly width: number; readonly height: number };
  /** A touch screen and a mobile viewport (`isMobile`): the first tap is a touch. */
  readonly touch: boolean;
  /** The CPU slowed down this many times (`Emulation.setCPUThrottlingRate`); 1: none. */
  readonly cpuSlowdown: number;
}

export const benchProfiles: Readonly<Record<BenchProfile['name'], BenchProfile>> = {
  desktop: { name: 'desktop', viewport: { width: 375, height: 740 }, touch: false, cpuSlowdown: 1 },
  // Lighthouse's mobile run: a CPU 4x slower than the machine's, the same network; an iPhone's 390 x 844 viewport.
  mobile: { name: 'mobile', viewport: { width: 390, height: 844 }, touch: true, cpuSlowdown: 4 },
};

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
  /**
   * ms until the first open card's action button works (undefined: no open card). A peer's: its frame on screen (at
   * best: its stand-in frame has no button of its own).
   */
  readonly interactiveMs: number | undefined;
  /**
   * Total Blocking Time: over the page's long tasks from its first contentful paint to the end of the run, each one's
   * time past 50 ms (ms).
   */
  readonly totalBlockingMs: number;
  /**
   * The first tap's interaction latency (Event Timing, as INP counts it: the longest event of the interaction, input to
   * the next paint), tapped on the first answer the moment the card's button works (undefined: no tap).
   */
  readonly firstTapMs: number | undefined;
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
  const bench = { cards: [], frameReady: 0, shift: 0, longTasks: [], tapEvents: [] };
  window.bench = bench;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) bench.shift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  // The first tap's events (pointer, click): the interaction's latency is its longest one's duration. The first input
  // is reported whatever its duration; other events from 16 ms, the least Event Timing reports.
  const tapEvent = (list) => {
    for (const entry of list.getEntries()) if (entry.interactionId > 0 || entry.entryType === 'first-input') bench.tapEvents.push([entry.interactionId, entry.duration]);
  };
  new PerformanceObserver(tapEvent).observe({ type: 'event', buffered: true, durationThreshold: 16 });
  new PerformanceObserver(tapEvent).observe({ type: 'first-input', buffered: true });
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
      // A card drawn by the proxy shows its button before its element code ran: it works once the card is upgraded. A
      // floor's button works as soon as it is drawn.
      const live = card.matches(':defined') || button?.hasAttribute('data-floor');
      if (seen.data !== undefined && seen.interactive === undefined && button && live && button.getAttribute('aria-disabled') !== 'true')
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
  profile: BenchProfile,
  screenshot?: string,
): Promise<PageFigures> {
  // A new context: an empty cache and no open connections (the iframe may reuse what its page loaded, as in life).
  const context = await browser.newContext({
    viewport: profile.viewport,
    ...(profile.touch && { isMobile: true, hasTouch: true }),
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...fast4g });
  if (profile.cpuSlowdown > 1)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
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
    longTasks: [start: number, duration: number][];
    tapEvents: [interactionId: number, duration: number][];
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
  // The fan taps the first answer the moment the card's button works (a click on the desktop profile).
  const tapped = waitFor.interactive && !waitFor.banner ? await tapFirstAnswer(page, profile) : false;
  // Late shifts (a part arriving, a banner resizing) and late long tasks count too.
  await page.waitForTimeout(2000);
  const bench = await read();
  const arrivals = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => ({
      path: new URL(entry.name).pathname,
      end: (entry as PerformanceResourceTiming).responseEnd,
    })),
  );
  const paints = await page.evaluate(() => ({
    firstContentfulPaint: performance.getEntriesByName('first-contentful-paint', 'paint')[0]?.startTime ?? 0,
  }));
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
  const interactiveMs = waitFor.interactive
    ? waitFor.banner
      ? bench.frameReady
      : bench.cards[0]?.interactive
    : undefined;
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
    totalBlockingMs: totalBlocking(bench.longTasks, paints.firstContentfulPaint),
    firstTapMs: tapped ? firstInteractionMs(bench.tapEvents) : undefined,
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

/** Taps (or, without touch, clicks) the centre of the first card's first answer; false when there is none. */
async function tapFirstAnswer(page: Page, profile: BenchProfile): Promise<boolean> {
  const box = await page.locator('fan-poll').first().locator('[part~="answer"]').first().boundingBox();
  if (!box) return false;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  if (profile.touch) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
  return true;
}

/** Total Blocking Time from the first contentful paint on: each long task's time past 50 ms after that paint. */
function totalBlocking(
  longTasks: readonly (readonly [number, number])[],
  firstContentfulPaint: number,
): number {
  return longTasks.reduce((sum, [start, duration]) => {
    const after = start + duration - Math.max(start, firstContentfulPaint);
    return sum + Math.max(0, after - 50);
  }, 0);
}

/** The first interaction's latency: the longest of its events (the first input's entry is one of them). */
function firstInteractionMs(events: readonly (readonly [number, number])[]): number | undefined {
  const first = events.find(([id]) => id > 0)?.[0];
  const durations = events.filter(([id]) => id === first || id === 0).map(([, duration]) => duration);
  return durations.length === 0 ? undefined : Math.max(...durations);
}
