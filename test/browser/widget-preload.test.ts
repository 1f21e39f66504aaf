// The recommended snippet (docs/embedding.md, configurator): its preloads are the requests the widget then makes, so
// the poll read starts with the HTML, one round trip after it, and is made once. The one-line script tag still works,
// a round trip later. Round trips are counted from the requests the page made (a request is one deeper than the
// deepest one that had finished when it started; the HTML is 0).
import { readFileSync } from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { viewPoll } from '../../src/polls/poll-view.ts';
import { drawnCardPath } from '../../src/contracts/drawn-card-contract.ts';
import { drawnCardMark } from '../../widget/delivery/drawn-cards.ts';
import { fr } from '../../widget/i18n/fr.ts';
import { embedSnippet, preloadLines, type EmbedChoice } from '../../widget/configurator/embed-snippet.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let server: { url: string; close: () => Promise<void> };
let polls: Poll[] = [];
const pages = new Map<string, string>();

beforeAll(async () => {
  ensureWidgetBuilt();
  const listening = await listenOnLoopback((request) => {
    const body = pages.get(new URL(request.url).pathname);
    return body === undefined
      ? new Response('Not found', { status: 404 })
      : new Response(body, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }, 0);
  // The partner's page on another site than the proxy, as in production.
  server = { url: onAnotherSite(listening.url), close: () => closeServer(listening.server) };
  // The proxy keeps its copy a minute here: the live store's next read, timed from the answer's `Age`, then
  // falls well after each load below, which counts the reads the page starts with.
  stack = await startStackAllowing(server.url, {
    simulate: false,
    env: { FAN_POLLS_POLL_CACHE_SECONDS: '60' },
  });
  polls = ((await (await fetch(`${stack.proxy.url}/api/polls?limit=50`)).json()) as { data: Poll[] }).data;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await server.close();
});

function choiceFor(pollId: string): EmbedChoice {
  const built = JSON.parse(readFileSync('dist/widget/version.json', 'utf8')) as { scriptTagCard: string[] };
  return {
    embed: 'card',
    results: 'always',
    proxyUrl: stack.proxy.url,
    version: widgetVersion,
    // As the configurator writes it, the same for every phase.
    elementCode: built.scriptTagCard.filter((file) => file !== 'fan-polls.js'),
    pollId,
    partnerId: '',
    theme: 'light',
    lang: '',
    minHeight: 440,
    maxWidth: 0,
    tracking: {},
  };
}

function articlePage(head: string, body: string): string {
  const text = '<p>' + 'Riverside came from behind at a rain-soaked Riverside Park. '.repeat(8) + '</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match report</title>
<style>fan-poll { display: block; min-height: 440px; }</style>${head}</head>
<body><h1>Late header settles the derby</h1>${text}${body}${text.repeat(4)}</body></html>`;
}

interface Load {
  readonly page: Page;
  /** The requests for the proxy's poll read, in order. */
  readonly pollReads: string[];
  /** Sequential round trips after the HTML to the first poll read's answer. */
  readonly roundTripsToData: number;
  /** Sequential round trips after the HTML to the answer of `url`'s request. */
  readonly roundTripsTo: (url: string) => number;
  /** Errors thrown into the page. */
  readonly errors: string[];
  /** Every URL the page requested. */
  readonly requested: string[];
  /** The round trip at which each chunk started (1: with the HTML), by its name without the hash. */
  readonly chunkDepths: Record<string, number[]>;
  readonly warnings: string[];
}

/** The round trip at which each chunk started, by the chunk's name without its hash. */
function chunkDepths<Timed extends { url: string }>(
  timed: readonly Timed[],
  depth: ReadonlyMap<Timed, number>,
): Record<string, number[]> {
  const byName: Record<string, number[]> = {};
  for (const request of timed) {
    const name = /\/chunks\/(.+)-\w+\.js$/.exec(request.url)?.[1];
    if (name) (byName[name] ??= []).push(depth.get(request)!);
  }
  return byName;
}

/** What the page's first card was at its first frame with its poll on screen (`watchFirstPaint`). */
interface FirstPaint {
  card: Element;
  questionNode: Node;
  question: string;
  text: string;
  radius: string;
  inert: boolean;
  elementDefined: boolean;
  pollReadsBefore: number;
  /** The entry's performance marks of drawn cards (`drawnCardMark`). */
  marks: number;
  readyHeard: boolean;
}

/** Watches the first card from the first frame on, before the page's scripts run: see `FirstPaint`. */
const watchFirstPaint = `(() => {
  const watch = { readyHeard: false };
  window.firstPaint = watch;
  document.addEventListener('fan-poll-ready', () => { watch.readyHeard = true; });
  const tick = () => {
    const card = document.querySelector('fan-poll');
    const question = card?.shadowRoot?.querySelector('[part="question"]');
    if (!question) return requestAnimationFrame(tick);
    Object.assign(watch, {
      card,
      questionNode: question.firstChild ?? question,
      question: question.textContent.trim(),
      text: card.shadowRoot.textContent.replace(/\\s+/g, ' '),
      radius: getComputedStyle(card.shadowRoot.querySelector('[part="card"]')).borderTopLeftRadius,
      inert: card.inert,
      elementDefined: customElements.get('fan-poll') !== undefined,
      pollReadsBefore: performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/api/polls?')).length,
      marks: performance.getEntriesByName(${JSON.stringify(drawnCardMark)}, 'mark').length,
    });
  };
  requestAnimationFrame(tick);
})();`;

/** What started a request (DevTools' initiator): the HTML parser (the page's markup, a preload) or a script. */
interface Initiator {
  readonly type: string;
  /** For a script's request, the script whose code asked for it. */
  readonly script?: string;
}

/** Records, by URL, what started each request `page` makes (Chromium's DevTools protocol). */
async function recordInitiators(page: Page, initiators: Map<string, Initiator>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.requestWillBeSent', ({ request, initiator }) => {
    const script = initiator.stack?.callFrames[0]?.url;
    initiators.set(request.url, { type: initiator.type, ...(script ? { script } : {}) });
  });
  await cdp.send('Network.enable');
}

/**
 * Lets `ms` of `page`'s time pass at once (Chromium's virtual time), then holds its clock there: what the page's
 * timers do in that time, such as Chromium's warning of a preload still unused 3 s after the load event, is done
 * and reported when this returns. The page still fetches, paints and runs its promises after it.
 */
async function fastForward(page: Page, ms: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const spent = new Promise((resolve) => cdp.once('Emulation.virtualTimeBudgetExpired', resolve));
  await cdp.send('Emulation.setVirtualTimePolicy', { policy: 'advance', budget: ms });
  await spent;
  // The page's console messages of that time reach the test before this answer does.
  await page.evaluate(() => undefined);
}

/**
 * Opens `path` with a fresh context and waits until every card shows its question; `prepare` may route the page's
 * requests first.
 */
async function load(
  path: string,
  html: string,
  cards: number,
  prepare?: (page: Page) => Promise<unknown>,
): Promise<Load> {
  pages.set(path, html);
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  // Round trips counted on a network that has some: 40 ms a request, so that a few milliseconds of a loaded runner
  // cannot put a request that started later in an earlier round trip's place.
  const network = await context.newCDPSession(page);
  await network.send('Network.enable');
  await network.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 40,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await prepare?.(page);
  await page.addInitScript({ content: watchFirstPaint });
  const warnings: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
  });
  const done: Request[] = [];
  page.on('requestfinished', (request) => done.push(request));
  await page.goto(server.url + path);
  for (let index = 0; index < cards; index += 1)
    await page.locator('fan-poll').nth(index).locator('[part="question"]').waitFor();
  // Chromium warns of an unused preload 3 s after the load event: the page's clock moves on past it at once.
  await fastForward(page, 3500);
  const timed = done
    .map((request) => {
      const timing = request.timing();
      return { url: request.url(), start: timing.startTime, end: timing.startTime + timing.responseEnd };
    })
    .sort((a, b) => a.start - b.start);
  const depth = new Map<(typeof timed)[number], number>([[timed[0]!, 0]]);
  for (const request of timed.slice(1)) {
    let deepest = 0;
    for (const [earlier, level] of depth)
      if (earlier.end <= request.start) deepest = Math.max(deepest, level);
    depth.set(request, deepest + 1);
  }
  const reads = timed.filter((request) => request.url.includes('/api/polls?'));
  return {
    page,
    pollReads: reads.map((request) => request.url),
    roundTripsToData: depth.get(reads[0]!) ?? Number.NaN,
    roundTripsTo: (url) => depth.get(timed.find((request) => request.url === url)!) ?? Number.NaN,
    errors,
    requested: timed.map((request) => request.url),
    chunkDepths: chunkDepths(timed, depth),
    warnings,
  };
}

const openPoll = () => polls.find((poll) => poll.status === 'open')!;

describe('the recommended snippet in Chromium', () => {
  it.each([
    ['an open', () => openPoll(), fr.signIn],
    [
      'a read-only',
      () => polls.find((each) => viewPoll(each, Date.now()).phase !== 'open')!,
      [fr.upcoming, fr.closed, fr.disclosed, fr.cancelled].join('|'),
    ],
  ])(
    'paints %s card in a language of its own from the proxy’s drawing, before any element code, then hydrates it',
    async (_phase, pollOf, frenchWords) => {
      const poll = pollOf();
      const { html } = embedSnippet({ ...choiceFor(poll.id), lang: 'fr' });
      // Under a style-src without 'unsafe-inline' (the article's own rule carries a nonce): the drawn card's styles
      // must still apply, as constructed sheets.
      const strict = `<meta http-equiv="Content-Security-Policy" content="style-src 'nonce-article'">`;
      // The element code held back until the card is on screen: on a phone's network it arrives well after the drawn
      // card (`npm run bench -- widget`); here on loopback it would arrive with it.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const initiators = new Map<string, Initiator>();
      const { page, requested, chunkDepths, warnings, errors } = await load(
        `/drawn-${poll.status}.html`,
        articlePage(strict + html, '').replace('<style>', '<style nonce="article">'),
        1,
        async (page) => {
          await recordInitiators(page, initiators);
          await page.route(/fan-polls-hydrate\.js$/, (route) => released.then(() => route.continue()));
        },
      );
      const drawnUrl = `${stack.proxy.url}${drawnCardPath(poll.id, { lang: 'fr' })}`;
      // One request for the drawn card, the page's preload (started by the parser with the HTML: one round trip
      // after it, whatever the scheduling on this machine), which the entry's read took over; no chunk at all, and no
      // poll read before the card was on screen.
      expect(requested.filter((url) => url.includes('/card'))).toEqual([drawnUrl]);
      expect(initiators.get(drawnUrl)?.type).toBe('parser');
      expect(chunkDepths).toEqual({});
      const firstPaint = await page.evaluate(
        () => (window as unknown as { firstPaint: FirstPaint }).firstPaint,
      );
      expect(firstPaint.elementDefined).toBe(false);
      expect(firstPaint.pollReadsBefore).toBe(0);
      expect(firstPaint.question).toBe(poll.question);
      // French words, drawn by the proxy in the card's language.
      expect(firstPaint.text).toMatch(new RegExp(frenchWords));
      expect(firstPaint.radius).not.toBe('0px');
      // It takes taps from its first paint (what a tap does before it is live: widget-early-tap.test.ts).
      expect(firstPaint.inert).toBe(false);
      expect(firstPaint.marks).toBe(1);
      await page.screenshot({ path: screenshotPath(`drawn-card-fr-${poll.status}-first-paint.png`) });
      release();
      // Hydrated: the page's own element (its listener heard the card), the same text nodes, and it takes clicks.
      await page.waitForFunction(() => {
        const card = document.querySelector('fan-poll') as (HTMLElement & { hasUpdated?: boolean }) | null;
        return card?.matches(':defined') && card.hasUpdated;
      });
      const after = await page.evaluate(() => {
        const watch = (window as unknown as { firstPaint: FirstPaint }).firstPaint;
        const card = document.querySelector('fan-poll')!;
        return {
          sameElement: card === watch.card,
          sameQuestion: card.shadowRoot!.contains(watch.questionNode),
          ready: watch.readyHeard,
          styleAfter: getComputedStyle(card.shadowRoot!.querySelector('[part="card"]')!).borderTopLeftRadius,
        };
      });
      expect(after).toEqual({
        sameElement: true,
        sameQuestion: true,
        ready: true,
        styleAfter: firstPaint.radius,
      });
      if (poll.status === 'open')
        await page
          .locator('fan-poll [part="button"]:not([aria-disabled="true"])', { hasText: frenchWords })
          .waitFor();
      expect(warnings.filter((text) => /preload|security policy|hydrat/i.test(text))).toEqual([]);
      expect(errors).toEqual([]);
      await page.screenshot({ path: screenshotPath(`drawn-card-fr-${poll.status}-hydrated.png`) });
      await page.context().close();
    },
  );

  it('paints from the element code when the proxy cannot draw the card, and throws nothing into the page', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const { html } = embedSnippet({ ...choiceFor(missing), lang: 'en' });
    pages.set('/undrawn.html', articlePage(html, ''));
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/card')) answers.push(response.status());
    });
    await page.goto(`${server.url}/undrawn.html`);
    // The card says what a card of an unknown poll says, drawn by the element code.
    await page.locator('fan-poll [part="status"], fan-poll [role="alert"]').first().waitFor();
    expect(answers).toEqual([404]);
    expect(await page.locator('fan-poll').evaluate((card) => card.matches(':defined'))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads the poll once, with the preloaded request, one round trip after the HTML', async () => {
    const { html } = embedSnippet(choiceFor(openPoll().id));
    const { page, pollReads, roundTripsToData, requested, warnings } = await load(
      '/one.html',
      articlePage(html, ''),
      1,
    );
    expect(pollReads).toEqual([`${stack.proxy.url}/api/polls?ids[]=${openPoll().id}&limit=1`]);
    expect(roundTripsToData).toBe(1);
    // The preloaded modules are the ones that run: each loaded once, the element code with the HTML too.
    const code = requested.filter((url) => url.endsWith('.js'));
    expect(new Set(code).size).toBe(code.length);
    expect(code.some((url) => url.includes('/chunks/page-widget-'))).toBe(true);
    expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
    await page.context().close();
  });

  it('paints a read-only card from the element code started with the HTML, no other chunk', async () => {
    const poll = polls.find((each) => viewPoll(each, Date.now()).phase !== 'open')!;
    const { html } = embedSnippet(choiceFor(poll.id));
    const { page, pollReads, roundTripsToData, chunkDepths, warnings } = await load(
      '/read-only.html',
      articlePage(html, ''),
      1,
    );
    expect(pollReads).toHaveLength(1);
    expect(roundTripsToData).toBe(1);
    // The element code, requested once with the HTML; no card-details at all (the list's chunk, which no card waits
    // for, comes later).
    expect(chunkDepths['page-widget']).toEqual([1]);
    expect(chunkDepths['card-details']).toBeUndefined();
    expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
    await page.context().close();
  });

  it('reads a page of several cards once, with one preload listing their ids', async () => {
    const ids = polls.slice(0, 4).map((poll) => poll.id);
    const { proxyUrl, version, elementCode } = choiceFor(ids[0]!);
    const head = [
      ...preloadLines(proxyUrl, version, ids, elementCode),
      `<script type="module" src="${proxyUrl}/widget/v${version}/fan-polls.js" data-proxy="${proxyUrl}"></script>`,
    ].join('\n');
    const body = ids
      .map((id) => `<fan-poll poll-id="${id}" eager></fan-poll><p>Between the cards.</p>`)
      .join('');
    const { page, pollReads, roundTripsToData, warnings } = await load(
      '/several.html',
      articlePage(head, body),
      ids.length,
    );
    expect(pollReads).toHaveLength(1);
    expect(roundTripsToData).toBe(1);
    expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
    await page.context().close();
  });

  it('starts the banner’s poll read and hydrating code with its drawn frame page, read once', async () => {
    const { proxyUrl, version } = choiceFor(openPoll().id);
    const head = `<script type="module" src="${proxyUrl}/widget/v${version}/fan-polls-frame.js"></script>`;
    const body = `<fan-poll-frame poll-id="${openPoll().id}"></fan-poll-frame>`;
    pages.set('/banner.html', articlePage(head, body));
    const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => warnings.push(message.text()));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const framePage = page.waitForResponse((response) => response.url().includes('/embed/poll.html'));
    await page.goto(`${server.url}/banner.html`);
    // The frame page arrives with its card drawn, its read and the hydrating widget named in it, before any of its
    // script ran (the proxy draws the card: src/proxy/frame-page-render.ts).
    const html = await (await framePage).text();
    expect(html).toContain(
      `<link rel="preload" as="fetch" crossorigin="anonymous" href="${proxyUrl}/api/polls?ids[]=${openPoll().id}&amp;limit=1" />`,
    );
    expect(html).toContain('<template shadowroot="open" shadowrootmode="open">');
    expect(html).toContain('<link rel="modulepreload" href="../fan-polls-hydrate.js" />');
    await page.frameLocator('iframe').locator('fan-poll [part="question"]').waitFor();
    await fastForward(page, 3500);
    expect(requested.filter((url) => url.includes('/api/polls?'))).toHaveLength(1);
    expect(warnings.filter((text) => /preload/i.test(text))).toEqual([]);
    await context.close();
  });

  it('still works with the one-line script tag, a round trip later', async () => {
    const { proxyUrl, version } = choiceFor(openPoll().id);
    const head = `<script type="module" src="${proxyUrl}/widget/v${version}/fan-polls.js" data-proxy="${proxyUrl}"></script>`;
    const body = `<fan-poll poll-id="${openPoll().id}"></fan-poll>`;
    const initiators = new Map<string, Initiator>();
    const { page, pollReads } = await load('/plain.html', articlePage(head, body), 1, (page) =>
      recordInitiators(page, initiators),
    );
    expect(pollReads).toHaveLength(1);
    // A round trip later, by what started each request rather than by timings (a loaded machine blurs those): the
    // parser asked for the entry with the HTML, and the entry's script asked for the poll once it had arrived.
    const entry = `${proxyUrl}/widget/v${version}/fan-polls.js`;
    expect(initiators.get(entry)?.type).toBe('parser');
    expect(initiators.get(pollReads[0]!)).toEqual({ type: 'script', script: entry });
    await page.context().close();
  });
});
