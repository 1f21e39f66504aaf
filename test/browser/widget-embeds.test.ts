import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanToken, voteRequest } from '../../src/sandbox/test-kit.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { ensureWidgetBuilt, launchChromium, startWidgetStack, type WidgetStack } from './widget-stack.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let stack: WidgetStack;
let browser: Browser;

beforeAll(async () => {
  ensureWidgetBuilt();
  stack = await startWidgetStack();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
});

/** `bypassCSP` only for tests that inject their own script or stylesheet (axe, a hostile stylesheet). */
async function openDemo(
  width = 1280,
  bypassCSP = false,
  query = '',
): Promise<{ page: Page; violations: string[]; failed: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, bypassCSP });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  // Every answer of 400 or more the page got (a missing icon, style or script of the demo page).
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(stack.demo.url + query);
  await page.locator('fan-poll >> [part="question"]').first().waitFor();
  return { page, violations, failed };
}

const cardQuestion = (page: Page, index: number) =>
  page.locator('fan-poll').nth(index).locator('[part="question"]').textContent();

describe('widget embeds in Chromium (demo page, live sandbox through the proxy)', () => {
  it('renders script-tag cards with live data and updates them as votes arrive', async () => {
    const { page } = await openDemo();
    expect(await cardQuestion(page, 0)).toBeTruthy();
    const pollId = (await page.locator('fan-poll').first().getAttribute('poll-id'))!;
    const stats = page.locator('fan-poll').first().locator('[part="stats"]');
    const before = await stats.textContent();
    expect(before).toMatch(/votes/);
    // A fan votes on the platform (in-process sandbox); the card's live store picks it up without a reload.
    const answerId = await page
      .locator('fan-poll')
      .first()
      .locator('input')
      .first()
      .evaluate((input) => (input as HTMLInputElement).value);
    // Any seeded fan who holds this club's tokens and has not voted yet.
    const statuses: number[] = [];
    for (const fan of ['alex', 'sam', 'jo', 'kim', 'rex']) {
      const vote = await voteRequest(
        stack.sandbox.sandbox,
        fanToken(stack.sandbox.sandbox, fan),
        pollId,
        answerId,
      );
      statuses.push(vote.status);
      if (vote.status === 201) break;
    }
    expect(statuses).toContain(201);
    await expect.poll(() => stats.textContent(), { timeout: 45_000, interval: 500 }).not.toBe(before);
    await page.close();
  });

  it('keeps the cards when a lazy chunk cannot load (the list’s), and throws nothing into the page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const thrown: string[] = [];
    const logged: string[] = [];
    page.on('pageerror', (error) => thrown.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.route('**/widget/chunks/define-list-*.js', (route) => route.abort('connectionreset'));
    // The one-line script tag's page: its element code imports the list's body as a chunk of its own.
    await page.goto(`${stack.demo.url}/?embed=script-tag`);
    const first = page.locator('fan-poll').first();
    await first.locator('[part="question"]').waitFor();
    await page.locator('fan-poll-list').scrollIntoViewIfNeeded();
    await expect.poll(() => logged.length).toBeGreaterThan(0);
    expect(await first.locator('[part="stats"]').textContent()).toMatch(/votes/);
    expect(await page.locator('fan-poll-list fan-poll').count()).toBe(0);
    expect(thrown).toEqual([]);
    await page.close();
  });

  it('upgrades cards a single-page app adds later, and loading the script twice changes nothing', async () => {
    const { page } = await openDemo();
    const thrown: string[] = [];
    const warnings: string[] = [];
    page.on('pageerror', (error) => thrown.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    const pollId = (await page.locator('fan-poll').first().getAttribute('poll-id'))!;
    const constructors = await page.evaluate(async () => {
      const first = customElements.get('fan-poll');
      // The same file again, and a second copy of it under another URL (another module instance).
      for (const src of ['/widget/fan-polls.js', '/widget/fan-polls.js?copy=2']) {
        const script = document.createElement('script');
        script.type = 'module';
        script.src = src;
        script.dataset.proxy =
          document.querySelector<HTMLScriptElement>('script[data-proxy]')!.dataset.proxy!;
        document.head.append(script);
        await new Promise((resolve) => {
          script.addEventListener('load', resolve);
        });
      }
      return { same: customElements.get('fan-poll') === first };
    });
    expect(constructors).toEqual({ same: true });
    await page.evaluate((id) => {
      const card = document.createElement('fan-poll');
      card.setAttribute('poll-id', id);
      card.id = 'added-later';
      document.querySelector('article')!.append(card);
    }, pollId);
    const added = page.locator('#added-later');
    await added.scrollIntoViewIfNeeded();
    await added.locator('[part="question"]').waitFor();
    expect(await added.locator('[part="stats"]').textContent()).toMatch(/votes/);
    await page.screenshot({ path: screenshotPath('spa-upgrade.png'), fullPage: false });
    expect(thrown).toEqual([]);
    expect(warnings).toEqual([]);
    await page.close();
  });

  it.each([
    // The recommended snippet: the report's card drawn by the proxy (its styles as constructed sheets), then the
    // hydrating bundle, one module with everything.
    ['recommended snippet', '', ['/widget/fan-polls.js', '/widget/fan-polls-hydrate.js']],
    // The one-line script tag: the element code and the lazy chunks (the list, the card's details with their adopted
    // styles).
    [
      'one-line script tag',
      '/?embed=script-tag',
      [
        '/widget/chunks/page-widget-<hash>.js',
        '/widget/chunks/define-list-<hash>.js',
        '/widget/chunks/card-details-<hash>.js',
      ],
    ],
  ])(
    'shows no Content Security Policy violation on the strict-CSP demo page, %s',
    async (_embed, query, code) => {
      const { page, violations, failed } = await openDemo(1280, false, query);
      await page.locator('fan-poll-frame iframe').scrollIntoViewIfNeeded();
      await page.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
      await page.locator('fan-poll-list fan-poll').first().scrollIntoViewIfNeeded();
      await page.locator('fan-poll-list fan-poll [part="question"]').first().waitFor();
      const seen = await page.evaluate(
        () => (window as unknown as { cspViolations: string[] }).cspViolations,
      );
      expect(seen).toEqual([]);
      // The embed's code came in as modules under the nonce + strict-dynamic policy.
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.startsWith('/widget/'))
          .map((path) => path.replace(/-[\w-]{8}\.js$/, '-<hash>.js')),
      );
      expect(scripts).toEqual(expect.arrayContaining(code));
      expect(violations).toEqual([]);
      const demoOrigin = new URL(stack.demo.url).origin;
      expect(failed.filter((line) => new URL(line.split(' ')[1]!).origin === demoOrigin)).toEqual([]);
      await page.close();
    },
  );

  it('gives the demo page an SVG icon from its own origin, so the browser asks for no /favicon.ico', async () => {
    const { page } = await openDemo();
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    const icon = new URL(href!, stack.demo.url);
    expect(icon.origin).toBe(new URL(stack.demo.url).origin);
    const answer = await page.request.get(icon.href);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('image/svg+xml');
    expect(await answer.text()).toContain('<svg');
    await page.close();
  });

  it('finds no axe-core violation in the cards', async () => {
    const { page } = await openDemo(1280, true);
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(context: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
        }
      ).axe;
      return axe.run({ include: [['fan-poll']] });
    });
    expect(result.violations.map((violation) => violation.id)).toEqual([]);
    await page.close();
  });

  it('gives the banner’s page its own landmark beside the host page’s <main> (axe landmark-unique, across frames)', async () => {
    const { page } = await openDemo(1280, true);
    await page.locator('fan-poll-frame iframe').scrollIntoViewIfNeeded();
    await page.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    for (const frame of page.frames()) await frame.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run(options: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
        }
      ).axe;
      return axe.run({ runOnly: ['landmark-unique', 'landmark-no-duplicate-main'] });
    });
    expect(result.violations.map((violation) => violation.id)).toEqual([]);
    expect(await page.locator('main').count()).toBe(1);
    await page.close();
  });

  it.each([320, 768, 1280])('sizes the iframe to its content at %i px with no scrollbar', async (width) => {
    const { page } = await openDemo(width);
    const frameElement = page.locator('fan-poll-frame iframe');
    await page.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    await expect
      .poll(async () => {
        const frame = await frameElement.elementHandle();
        const content = await (await frame.contentFrame())!.evaluate(() => ({
          content: Math.ceil(document.getElementById('content')!.getBoundingClientRect().height),
          scrollHeight: document.documentElement.scrollHeight,
          clientHeight: document.documentElement.clientHeight,
        }));
        const box = (await frameElement.boundingBox())!;
        return {
          fits: Math.round(box.height) === content.content,
          noScroll: content.scrollHeight <= content.clientHeight,
        };
      })
      .toEqual({ fits: true, noScroll: true });
    await page.close();
  });

  it('keeps the card unchanged under a hostile host stylesheet, and the card leaves the host alone', async () => {
    const { page } = await openDemo(1280, true);
    const card = page.locator('fan-poll').first();
    const probe = () =>
      card.evaluate((element) => {
        const legend = element.shadowRoot!.querySelector('legend')!;
        const style = getComputedStyle(legend);
        const box = element.shadowRoot!.querySelector('.card')!.getBoundingClientRect();
        return {
          font: style.fontFamily,
          color: style.color,
          size: style.fontSize,
          spacing: style.letterSpacing,
          width: Math.round(box.width),
        };
      });
    const hostBefore = await page.evaluate(() => ({
      body: getComputedStyle(document.body).fontFamily,
      sheets: document.adoptedStyleSheets.length,
      styles: document.querySelectorAll('style').length,
    }));
    expect(hostBefore).toEqual({ body: expect.stringContaining('Georgia') as string, sheets: 0, styles: 0 });
    const before = await probe();
    await page.addStyleTag({
      content:
        '* { font-family: "Comic Sans MS", cursive !important; color: lime !important; letter-spacing: 4px !important; font-size: 30px !important; } legend, button, input, progress, div, p { display: inline !important; color: red !important; } fan-poll { line-height: 5 !important; text-transform: uppercase !important; }',
    });
    expect(await probe()).toEqual(before);
    await page.close();
  });
});
