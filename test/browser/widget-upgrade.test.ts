// A deploy as a partner's open page lives through it, in Chromium: the page loads the widget pinned to v0.1.0 from
// the old proxy; the proxy is upgraded to 0.2.0 behind a round-robin pair (old and new instance side by side, then
// the new one only), and cards added to the old page meanwhile load their lazy chunks (languages) from either
// instance and render; once the old instance is gone, a card added to the old page reads its poll from the new one.
// A fresh page with the same pinned snippet then gets the 0.2.0 entry and works.
// The upgrade is the real build with every chunk renamed (new hashes), merged by the build's own retention code.
import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { serveProxy, type RunningProxy } from '../../src/proxy/serve.ts';
import { precompressFolder } from '../../widget/build/precompressed-files.ts';
import { readPreviousBuilds, retainReleases } from '../../widget/build/widget-releases.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { startRoundRobin, type RoundRobin } from '../support/round-robin.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt, launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

const builtWidget = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
let folder: string;
let browser: Browser;
let stack: SandboxAndProxy;
let newProxy: RunningProxy;
let balancer: RoundRobin;
let page: { url: string; close: () => Promise<void> };
let pollId = '';
/** Other polls, one per card added later (each card its own first read). */
let otherPollIds: string[] = [];

/** The built widget as 0.2.0: every chunk under a new hash (and every reference to it), merged with 0.1.0's. */
async function upgradedBuild(oldBuild: string, newBuild: string): Promise<void> {
  const previous = await readPreviousBuilds([oldBuild]);
  await cp(oldBuild, newBuild, { recursive: true });
  const chunks = await readdir(join(newBuild, 'chunks'));
  const renamed = new Map(chunks.map((name) => [name, name.replace(/\.js$/, 'Up2.js')]));
  for (const [from, to] of renamed)
    await rename(join(newBuild, 'chunks', from), join(newBuild, 'chunks', to));
  const texts = (await readdir(newBuild, { recursive: true })).filter((path) => /\.(js|html)$/.test(path));
  for (const path of texts) {
    let text = await readFile(join(newBuild, path), 'utf8');
    for (const [from, to] of renamed) text = text.replaceAll(from, to);
    await writeFile(join(newBuild, path), text);
  }
  await writeFile(join(newBuild, 'version.json'), JSON.stringify({ version: '0.2.0' }) + '\n');
  await retainReleases(newBuild, '0.2.0', previous);
  // As the build ends: compressed copies of what changed.
  await precompressFolder(newBuild);
}

function partnerPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match page</title>
<script type="module" src="${balancer.url}/widget/v0.1.0/fan-polls.js" data-proxy="${balancer.url}"></script></head>
<body><h1>Riverside v Harbour</h1><fan-poll poll-id="${pollId}"></fan-poll></body></html>`;
}

beforeAll(async () => {
  ensureWidgetBuilt();
  folder = await mkdtemp(join(tmpdir(), 'fan-polls-upgrade-'));
  const oldBuild = join(folder, 'old');
  const newBuild = join(folder, 'new');
  await cp(builtWidget, oldBuild, { recursive: true });
  await writeFile(join(oldBuild, 'version.json'), JSON.stringify({ version: '0.1.0' }) + '\n');
  await upgradedBuild(oldBuild, newBuild);
  const server = await listenOnLoopback(
    () => new Response(partnerPage(), { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
    0,
  );
  page = { url: onAnotherSite(server.url), close: () => closeServer(server.server) };
  stack = await startStackAllowing(page.url, { simulate: false, env: { FAN_POLLS_WIDGET_DIR: oldBuild } });
  newProxy = await serveProxy({
    port: 0,
    env: {
      FAN_POLLS_PRESET: 'sandbox',
      FAN_POLLS_PLATFORM_API_URL: stack.sandbox.apiUrl,
      FAN_POLLS_PLATFORM_AUTH_URL: stack.sandbox.authUrl,
      FAN_POLLS_ALLOWED_ORIGINS: page.url,
      FAN_POLLS_WIDGET_DIR: newBuild,
    },
    deps: {
      logSink: (level, line) => {
        if (level !== 'info') console.warn(line);
      },
    },
  });
  balancer = await startRoundRobin([stack.proxy.url]);
  const polls = ((await (await fetch(`${stack.proxy.url}/api/polls?limit=50`)).json()) as { data: Poll[] })
    .data;
  pollId = openRiversidePoll(polls, { marginMs: 120_000 }).id;
  otherPollIds = polls.map(({ id }) => id).filter((id) => id !== pollId);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await balancer.close();
  await newProxy.close();
  await stack.close();
  await page.close();
  await rm(folder, { recursive: true, force: true });
});

/** Failed responses and thrown errors of a tab. */
function watch(tab: Page): { failed: string[]; thrown: string[] } {
  const seen = { failed: [] as string[], thrown: [] as string[] };
  tab.on('response', (response) => {
    if (response.status() >= 400) seen.failed.push(`${response.status()} ${response.url()}`);
  });
  tab.on('pageerror', (error) => seen.thrown.push(error.message));
  return seen;
}

/** Adds a card for another poll in `lang`, and waits until it shows its question. */
async function addCard(tab: Page, lang: string): Promise<void> {
  const id = otherPollIds.shift();
  if (id === undefined) throw new Error('The sandbox has too few polls for this test.');
  await tab.evaluate(
    ({ id, language }) => {
      const card = document.createElement('fan-poll');
      card.setAttribute('poll-id', id);
      card.setAttribute('lang', language);
      document.body.append(card);
    },
    { id, language: lang },
  );
  await tab.locator(`fan-poll[lang="${lang}"] [part="question"]`).waitFor();
}

/** Switches the page's first card to `lang`: its language chunk loads (lazily, as the page asks), then it renders. */
async function switchLanguage(tab: Page, lang: string): Promise<void> {
  const card = tab.locator('fan-poll').first();
  const shown = () => card.evaluate((element) => element.shadowRoot?.textContent ?? '');
  const before = await shown();
  const chunk = tab.waitForResponse((response) => response.url().includes(`/chunks/${lang}-`));
  await card.evaluate((element, language) => {
    element.setAttribute('lang', language);
  }, lang);
  expect((await chunk).status()).toBe(200);
  // Its words change (a chunk that failed would leave the card as it was), the question still shown.
  await expect.poll(shown, { timeout: 10_000 }).not.toBe(before);
  await card.locator('[part="question"]').waitFor();
}

const chunkAnswers = (from: string) =>
  balancer.served.filter(({ backend, path }) => backend === from && path.includes('/chunks/'));

describe('a widget upgrade under an open page', () => {
  it('keeps the old page’s cards loading their chunks from the old and the new instance', async () => {
    const tab = await browser.newPage();
    const seen = watch(tab);
    await tab.goto(page.url);
    await tab.locator('fan-poll [part="question"]').first().waitFor();

    balancer.setBackends([stack.proxy.url, newProxy.url]);
    await addCard(tab, 'de');
    for (const lang of ['es', 'it', 'fr']) await switchLanguage(tab, lang);
    expect(chunkAnswers(newProxy.url).length).toBeGreaterThan(0);
    expect(chunkAnswers(stack.proxy.url).length).toBeGreaterThan(0);

    balancer.setBackends([newProxy.url]);
    const deployedAt = balancer.served.length;
    await switchLanguage(tab, 'pt');
    expect(balancer.served.filter(({ path }) => /\/chunks\/pt-/.test(path))).toEqual([
      expect.objectContaining({ backend: newProxy.url, status: 200 }),
    ]);
    // The deploy done: the old page's code asks the new instance alone for a poll no card showed yet, and shows it.
    await addCard(tab, 'en');
    const pollReads = balancer.served.slice(deployedAt).filter(({ path }) => path.startsWith('/api/polls'));
    expect(pollReads.length).toBeGreaterThan(0);
    expect(pollReads.every(({ backend, status }) => backend === newProxy.url && status === 200)).toBe(true);
    await tab.screenshot({
      path: screenshotPath('widget-upgrade-old-page-after-deploy.png'),
      fullPage: true,
    });
    expect(seen.failed).toEqual([]);
    expect(seen.thrown).toEqual([]);
    await tab.close();
  }, 90_000);

  it('serves a fresh page pinned to v0.1.0 the upgraded widget, which works', async () => {
    balancer.setBackends([newProxy.url]);
    const tab = await browser.newPage();
    const seen = watch(tab);
    const before = balancer.served.length;
    await tab.goto(page.url);
    await tab.locator('fan-poll [part="question"]').first().waitFor();
    await addCard(tab, 'fr');
    const loaded = balancer.served.slice(before).filter(({ path }) => path.includes('/chunks/'));
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.every(({ path, status }) => path.endsWith('Up2.js') && status === 200)).toBe(true);
    expect(seen.failed).toEqual([]);
    expect(seen.thrown).toEqual([]);
    await tab.close();
  }, 90_000);
});
