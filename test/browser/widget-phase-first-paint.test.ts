// Every phase's first paint comes from the element code and the poll's data: with the one-line script tag
// on a partner page of another site, a card of each phase shows its phase's words while every other chunk is held
// (never answered), and a card asks for none of the card's lazy chunks before it paints; after it, an open card asks
// for its voting's, a closed or disclosed one for the details chunk (its share action), an upcoming or cancelled one
// for none. Screenshots: dist/screenshots/first-paint-<phase>.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { viewPoll, type PollPhase } from '../../src/polls/poll-view.ts';
import { widgetVersion } from '../../widget/base/widget-version.ts';
import { readWidgetFiles } from '../../widget/build/widget-files.ts';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { PageServer } from '../support/page-server.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let page: PageServer;
let polls: Poll[] = [];

/** The README's one-line tag; the card's poll id comes from the page's `?poll=` (set before the module runs). */
function partnerPage(proxyUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match report</title>
<style>fan-poll { display: block; min-height: 440px; }</style>
<script type="module" src="${proxyUrl}/widget/v${widgetVersion}/fan-polls.js" data-proxy="${proxyUrl}"></script></head>
<body><h1>Late header settles the derby</h1><fan-poll eager></fan-poll>
<script>document.querySelector('fan-poll').setAttribute('poll-id', new URLSearchParams(location.search).get('poll'));</script>
</body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  let proxyUrl = '';
  // The page's origin must be known to the proxy before it starts, and the page must know the proxy's URL.
  page = await servePageLazily(() => partnerPage(proxyUrl));
  stack = await startStackAllowing(page.url, { simulate: false });
  proxyUrl = stack.proxy.url;
  polls = ((await (await fetch(`${proxyUrl}/api/polls?limit=50`)).json()) as { data: Poll[] }).data;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await page.close();
});

/** `servePage` with a body known only once the proxy runs (another site than the proxy's: `localhost`). */
async function servePageLazily(body: () => string): Promise<PageServer> {
  const { server, url } = await listenOnLoopback(
    () => new Response(body(), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    0,
    'localhost',
  );
  return { url, close: () => closeServer(server) };
}

/** What each phase's card says at first paint: its badge, and the words under its answers or button. */
const firstWords: Record<Exclude<PollPhase, 'unknown'>, { badge: RegExp; text: RegExp }> = {
  upcoming: { badge: /^Upcoming · Opens in /, text: /Upcoming/ },
  open: { badge: /^Open · Closes in /, text: /Sign in to vote/ },
  closed: { badge: /^Closed$/, text: /Results in .*Voting is closed/s },
  disclosed: { badge: /^Results$/, text: /(Winner|Tie): |No votes were cast/ },
  cancelled: { badge: /^Cancelled$/, text: /This poll was cancelled: it takes no votes\./ },
};

/** The card's lazy chunks: what follows a fan's action, and the other languages. */
const cardChunk =
  /\/chunks\/(card-details|extension-channel|settle-vote|refused-origin|de|es|fr|it|pt)-[\w-]+\.js$/;

describe('a card’s first paint, for each phase', () => {
  it.each(Object.keys(firstWords) as (keyof typeof firstWords)[])(
    'paints a %s poll from the element code and its data, no chunk on the way',
    async (phase) => {
      const poll = polls.find((each) => viewPoll(each, Date.now()).phase === phase);
      expect(poll, `a ${phase} poll in the sandbox`).toBeDefined();
      const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
      const tab = await context.newPage();
      // Every chunk but the element code is held until the card has painted: a first paint that needed one would
      // never come.
      const elementCode = readWidgetFiles().scriptTagCard.map((file) => file.replace(/^.*\//, ''));
      const held: string[] = [];
      const release: (() => void)[] = [];
      await context.route(/\/widget\/.*\/chunks\//, async (route) => {
        const file = route.request().url().replace(/^.*\//, '');
        if (!elementCode.includes(file)) {
          held.push(file);
          await new Promise<void>((resolve) => release.push(resolve));
        }
        await route.continue();
      });
      // The frame that paints the card: an animation frame asked for as the card has rendered its poll (its paint
      // follows the frame's callbacks), on the page's clock.
      await tab.addInitScript(() => {
        addEventListener('fan-poll-ready', () => {
          requestAnimationFrame(() => {
            (window as { paintFrameAt?: number }).paintFrameAt = performance.now();
          });
        });
      });
      await tab.goto(`${page.url}/?poll=${encodeURIComponent(poll!.id)}`);
      const card = tab.locator('fan-poll');
      await card.locator('[part="question"]').waitFor();
      const paintedAt = await (
        await tab.waitForFunction(() => (window as { paintFrameAt?: number }).paintFrameAt)
      ).jsonValue();
      const badge = (await card.locator('[part="phase"]').textContent())?.trim();
      const text = await card.locator('[part="card"]').innerText();
      await card.screenshot({ path: screenshotPath(`first-paint-${phase}.png`) });
      expect(text).toContain(poll!.question.trim());
      expect(badge).toMatch(firstWords[phase].badge);
      expect(text).toMatch(firstWords[phase].text);

      // An open card asks for its voting's chunks once painted; every card has asked for all it will by the page's
      // first idle moment after the paint.
      if (phase === 'open')
        await expect
          .poll(() => held, { timeout: 15_000 })
          .toEqual(
            expect.arrayContaining([
              expect.stringMatching(/^card-details-/),
              expect.stringMatching(/^extension-channel-/),
            ]),
          );
      if (phase === 'closed' || phase === 'disclosed')
        await expect
          .poll(() => held, { timeout: 15_000 })
          .toEqual(expect.arrayContaining([expect.stringMatching(/^card-details-/)]));
      await tab.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
      // Then the held chunks go on; when each started is on the page's clock (Resource Timing), once each has loaded.
      const released = [...held];
      for (const go of release.splice(0)) go();
      await tab.waitForFunction(
        (files) =>
          files.every((file) =>
            performance.getEntriesByType('resource').some((entry) => entry.name.endsWith(`/${file}`)),
          ),
        released,
      );
      const started = await tab.evaluate(() =>
        performance.getEntriesByType('resource').map((entry) => ({ url: entry.name, at: entry.startTime })),
      );
      const cardChunks = started.filter((entry) => cardChunk.test(entry.url));
      expect(cardChunks.filter((entry) => entry.at <= paintedAt!).map((entry) => entry.url)).toEqual([]);
      // After its first paint, an open card asks for its voting's chunks, a closed or disclosed one for the details
      // chunk alone (its share action), an upcoming or cancelled one for none.
      const asked = held.filter((file) => cardChunk.test(`/chunks/${file}`));
      if (phase === 'open')
        expect(held).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^card-details-/),
            expect.stringMatching(/^extension-channel-/),
          ]),
        );
      else if (phase === 'closed' || phase === 'disclosed')
        expect(asked).toEqual([expect.stringMatching(/^card-details-/)]);
      else expect(asked).toEqual([]);
      await context.close();
    },
  );
});
