// The fan's journey in the three engines fans use, with the page on the proxy's site and on another site, each
// engine's cookie policies: every case completes with the vote recorded once, or ends in the documented sentence. The
// page's first card paints from the proxy's drawing (the recommended snippet) and votes once hydrated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firefoxInstalled } from '../support/firefox.ts';
import { startWebKitDriver, webkitInstalled, type WebKitDriver } from '../support/webkit.ts';
import type { FanBrowser } from './journey/fan-browser.ts';
import { chromiumFanBrowser } from './journey/chromium-fan-browser.ts';
import { firefoxFanBrowser } from './journey/firefox-fan-browser.ts';
import { runFanJourney } from './journey/fan-journey.ts';
import type { CardOutcome } from './journey/sign-in-and-vote.ts';
import { webkitFanBrowser } from './journey/webkit-fan-browser.ts';
import { ensureWidgetBuilt, startWidgetStack, type WidgetStack } from './widget-stack.ts';
import { journeyCases, type JourneyCase } from './journey/journey-cases.ts';

let webkit: WebKitDriver | undefined;

const launch: Record<JourneyCase['engine'], (journey: JourneyCase) => Promise<FanBrowser>> = {
  chromium: (journey) => chromiumFanBrowser(journey.thirdPartyCookies === 'allowed' ? 'allowed' : 'blocked'),
  firefox: (journey) => firefoxFanBrowser(journey.thirdPartyCookies === 'allowed' ? 'allowed' : 'blocked'),
  webkit: async (journey) =>
    webkitFanBrowser((webkit ??= await startWebKitDriver()), {
      acceptInsecureCerts: true,
      itp: journey.thirdPartyCookies === 'tracking-prevention',
    }),
};

const installed: Record<JourneyCase['engine'], boolean> = {
  chromium: true,
  firefox: firefoxInstalled(),
  webkit: webkitInstalled(),
};

describe.each(['same-site', 'cross-site', 'cross-site-https'] as const)(
  'the fan journey, page %s with the proxy',
  (site) => {
    let stack: WidgetStack;

    beforeAll(async () => {
      ensureWidgetBuilt();
      stack = await startWidgetStack({
        simulate: false,
        crossSite: site === 'cross-site',
        https: site === 'cross-site-https',
        bannerFrom: 'proxy',
        // Every engine's fan signs in from 127.0.0.1, some twice for the card: more than one fan's 20 a minute.
        signInPerMinute: 600,
        // The live results wait on the proxy's window (and the card's 5 s tick): a 1 s window proves the same, sooner.
        pollCacheSeconds: 1,
      });
    });

    afterAll(async () => {
      await stack.close();
    });

    afterAll(async () => {
      await webkit?.close();
      webkit = undefined;
    });

    const cases = journeyCases.filter((each) => each.site === site);
    it.each(cases)(
      '$engine, third-party cookies $thirdPartyCookies: card $expected.card, banner $expected.banner',
      async (journey) => {
        if (!installed[journey.engine]) throw new Error(`${journey.engine} is not installed (see .ci/run)`);
        stack.sandbox.sandbox.reset();
        const browser = await launch[journey.engine](journey);
        try {
          const name = `${journey.engine}-${site}-${journey.thirdPartyCookies}`;
          const outcome = await runFanJourney(
            browser,
            { sandbox: stack.sandbox.sandbox, pageUrl: stack.demo.url },
            name,
          );
          const got = (each: CardOutcome) => (each.kind === 'voted' ? 'voted' : each.message);
          expect({ card: got(outcome.card), banner: got(outcome.banner) }).toEqual(journey.expected);
          if (outcome.card.kind === 'voted') expect(outcome.card.framed).toBe(journey.cardFramed === true);
          // The demo's report card has the recommended snippet: painted from the proxy's drawing, then hydrated.
          expect(outcome.drawnCards).toBe(1);
          // No embed reports an error in any engine: no refused policy or cookie, no failed load, nothing thrown.
          expect(outcome.errors).toEqual([]);
        } finally {
          await browser.close();
        }
      },
    );
  },
);
