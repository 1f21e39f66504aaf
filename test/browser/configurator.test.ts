// A new partner's steps with the embed configurator the proxy serves: open it, find a poll (club, phase, search),
// set tracking, check the page's origin (told what to add for one the proxy does not allow), watch the preview's
// events, copy the card's and then the banner's snippet from the clipboard into a fresh page on another port and
// site, and see both embeds run there with their events; a fan signs in and votes from the banner.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureConfiguratorBuilt, ensureWidgetBuilt } from '../support/vite-build.ts';
import { answerTextOf, fanPages, recordFanPosts } from './widget-fan-page.ts';
import { launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let partner: { url: string; close: () => Promise<void> };
/** What the partner pasted: the snippets' HTML into the body, their CSS into the site's stylesheet. */
const pasted = { html: '', css: '' };
let poll: Poll;

beforeAll(async () => {
  ensureWidgetBuilt();
  ensureConfiguratorBuilt();
  const server = await listenOnLoopback((request) => {
    if (new URL(request.url).pathname === '/site.css')
      return new Response(pasted.css, { headers: { 'Content-Type': 'text/css' } });
    return new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match report</title>` +
        `<link rel="stylesheet" href="/site.css"></head><body><main><h1>Match report</h1>${pasted.html}</main></body></html>`,
      { headers: { 'Content-Type': 'text/html; charset=utf-8' } },
    );
  }, 0);
  // A new origin on another port and another site than the proxy's.
  partner = { url: onAnotherSite(server.url), close: () => closeServer(server.server) };
  stack = await startStackAllowing(partner.url, { simulate: false });
  poll = await openRiversidePollFromProxy(stack.proxy.url);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await partner.close();
});

async function copy(page: Page, button: string): Promise<string> {
  await page.getByRole('button', { name: button }).click();
  await page.getByText(`${button.replace('Copy ', '')} copied.`).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.proxy.url });
  return context;
}

describe('the embed configurator (Chromium)', () => {
  it('takes a partner from a poll to a card and a banner running on a page of a new origin, with their events', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const thrown: string[] = [];
    page.on('pageerror', (error) => thrown.push(error.message));
    await page.goto(`${stack.proxy.url}/configurator/`);
    const csp = (await page.request.get(`${stack.proxy.url}/configurator/`)).headers()[
      'content-security-policy'
    ];
    expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);

    // 1. The poll: the club, the phase (open is preset), a word of the question.
    await page.locator('select[name="club"]').selectOption({ label: poll.partnerName });
    const word = poll.question.split(' ').find((each) => each.length > 4) ?? poll.question;
    await page.locator('input[name="search"]').fill(word.toUpperCase());
    const option = page.getByRole('radio', { name: new RegExp(escapeRegExp(poll.question)) });
    await option.check();
    const preview = page.locator('.preview-box fan-poll');
    await preview.locator('[part="question"]').filter({ hasText: poll.question }).waitFor();

    // 2. Tracking parameters.
    await page.locator('input[name="campaign"]').fill('configurator');
    await page.locator('input[name="referrer"]').fill('club-site');

    // 3. The page's origin: one the proxy does not allow gets the exact setting to add; the partner's is allowed.
    await page
      .getByLabel('The address of the page you will embed on')
      .fill('https://www.other.example/match');
    await page
      .locator('code.setting')
      .filter({ hasText: `FAN_POLLS_ALLOWED_ORIGINS=${partner.url},https://www.other.example` })
      .waitFor();
    await page.getByLabel('The address of the page you will embed on').fill(`${partner.url}/match-report`);
    await page.locator('[data-verdict="allowed"]').filter({ hasText: partner.url }).waitFor();

    // The preview's events, as the developer clicks: ready on arrival, then the sign-in the click starts.
    const log = page.locator('ol.events .event-type');
    await log.filter({ hasText: 'fan-poll-ready' }).first().waitFor();
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      preview.getByRole('button', { name: 'Sign in to vote' }).click(),
    ]);
    await log.filter({ hasText: 'fan-poll-sign-in' }).first().waitFor();
    await popup.close();
    expect(await page.locator('ol.events li pre').first().textContent()).toContain(
      '"campaign": "configurator"',
    );
    await page.screenshot({ path: screenshotPath('configurator-card.png'), fullPage: true });

    // The reserved height is measured from the preview, at the card's width and a phone's.
    const measured = page.locator('p.measured');
    await measured.waitFor({ timeout: 20_000 });
    const [wideHeight = 0, narrowHeight = 0] = (
      /(\d+) px at its width, (\d+) px on a/.exec(
        ((await measured.textContent()) ?? '').replace(/\s+/g, ' '),
      ) ?? []
    )
      .slice(1)
      .map(Number);
    expect(wideHeight).toBeGreaterThan(200);
    expect(narrowHeight).toBeGreaterThanOrEqual(wideHeight);
    const card = { html: await copy(page, 'Copy HTML'), css: await copy(page, 'Copy CSS') };
    expect(card.html).toContain(`${stack.proxy.url}/widget/v`);
    expect(card.html).toContain(`poll-id="${poll.id}"`);

    await page.getByRole('radio', { name: 'Iframe banner' }).check();
    await page.locator('select[name="theme"]').selectOption('dark');
    await page
      .frameLocator('.preview-box fan-poll-frame iframe')
      .locator('fan-poll [part="question"]')
      .waitFor();
    const banner = { html: await copy(page, 'Copy HTML'), css: await copy(page, 'Copy CSS') };
    expect(banner.html).toContain('fan-polls-frame.js');
    await page.screenshot({ path: screenshotPath('configurator-banner.png'), fullPage: true });
    expect(thrown).toEqual([]);
    await context.close();

    // The partner pastes both into their page, on another origin, and opens it in a fresh browser profile.
    pasted.html = `${card.html}\n<p>Half-time analysis.</p>\n${banner.html}`;
    pasted.css = `${card.css}\n${banner.css}`;
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
    const site = await fresh.newPage();
    const failed: string[] = [];
    site.on('response', (response) => {
      if (response.status() >= 400 && response.url().startsWith(stack.proxy.url)) failed.push(response.url());
    });
    site.on('pageerror', (error) => thrown.push(error.message));
    await site.addInitScript(() => {
      const seen: { type: string; tag: string; detail: unknown }[] = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      for (const type of ['fan-poll-ready', 'fan-poll-voted', 'fan-poll-error'])
        document.addEventListener(type, (event) => {
          seen.push({
            type,
            tag: (event.target as Element).localName,
            detail: (event as CustomEvent).detail,
          });
        });
    });
    await site.goto(`${partner.url}/match-report`);
    await site.locator('fan-poll [part="question"]').filter({ hasText: poll.question }).waitFor();
    await site.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    await expect
      .poll(() => site.evaluate(() => (window as unknown as { seen: { type: string; tag: string }[] }).seen))
      .toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'fan-poll-ready',
            tag: 'fan-poll',
            detail: {
              pollId: poll.id,
              phase: 'open',
              tracking: { referrer: 'club-site', campaign: 'configurator' },
            },
          }),
          expect.objectContaining({ type: 'fan-poll-ready', tag: 'fan-poll-frame' }),
        ]),
      );
    // The pasted rule reserved the card's measured height before any data: with its data, the card takes that
    // space (within a pixel), so the page does not shift.
    expect(await site.locator('fan-poll').evaluate((element) => getComputedStyle(element).minHeight)).toBe(
      `${wideHeight}px`,
    );
    const shown = await site
      .locator('fan-poll')
      .evaluate((element) => element.getBoundingClientRect().height);
    expect(Math.abs(shown - wideHeight)).toBeLessThanOrEqual(1);
    // A fan signs in and votes from the banner (its page is the proxy's own): the platform records the fan's answer.
    const bannerCard = site.frameLocator('fan-poll-frame iframe').locator('fan-poll');
    const answer = bannerCard.locator('[part~="answer"]').nth(2);
    const answerText = await answerTextOf(answer);
    const answerId = await answer.locator('input').evaluate((input) => (input as HTMLInputElement).value);
    await answer.locator('input').check();
    const fan = { context: fresh, page: site, card: bannerCard, ...recordFanPosts(site) };
    await signInAs(await openSignIn(fan), 'sam');
    await bannerCard.getByRole('button', { name: 'Vote', exact: true }).click();
    await bannerCard
      .locator('[part="actions"]')
      .getByText(`You voted for ${answerText}`)
      .waitFor({ timeout: 15_000 });
    await expect
      .poll(() => site.evaluate(() => (window as unknown as { seen: { type: string; tag: string }[] }).seen))
      .toContainEqual(
        expect.objectContaining({
          type: 'fan-poll-voted',
          tag: 'fan-poll-frame',
          detail: expect.objectContaining({
            answerId,
            tracking: { campaign: 'configurator', referrer: 'club-site' },
          }),
        }),
      );
    expect(await recordedAnswerIds(stack.sandbox.sandbox, poll.id, 'sam')).toEqual([answerId]);
    await site.screenshot({ path: screenshotPath('configurator-partner-page.png'), fullPage: true });
    expect(failed).toEqual([]);
    expect(thrown).toEqual([]);
    await fresh.close();
  });

  it('writes a card that follows the club’s current poll, with the partner’s links, and previews it', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(`${stack.proxy.url}/configurator/`);
    await page.locator('select[name="club"]').selectOption({ label: poll.partnerName });
    await page.getByRole('radio', { name: new RegExp(escapeRegExp(poll.question)) }).check();
    await page.getByRole('checkbox', { name: /current poll/ }).check();
    await page.locator('input[name="next-href"]').fill('https://www.club.example/match-report');
    await page.locator('input[name="verify-href"]').fill('https://explorer.example/address/{address}');
    // The preview follows the club: its current poll is the one the proxy names (the open poll closing soonest).
    const named = (await (
      await fetch(`${stack.proxy.url}/api/polls/current?partnerIds[]=${poll.partnerId}`)
    ).json()) as { data: Poll };
    await page
      .locator('.preview-box fan-poll [part="question"]')
      .filter({ hasText: named.data.question })
      .waitFor();
    const html = await copy(page, 'Copy HTML');
    expect(html).toContain(`<fan-poll\n  current\n  partner-ids="${poll.partnerId}"`);
    expect(html).not.toContain('poll-id=');
    expect(html).toContain('next-href="https://www.club.example/match-report"');
    expect(html).toContain('verify-href="https://explorer.example/address/{address}"');
    await page.screenshot({ path: screenshotPath('configurator-current.png'), fullPage: true });
    await context.close();
  });
});

const { openSignIn, signInAs } = fanPages(() => {
  throw new Error('This test has no demo page.');
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
