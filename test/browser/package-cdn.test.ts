// The package's self-contained browser build (`cdn/fan-polls.js`) as a CDN serves it: a static folder holding the
// package's files, and a plain page on another site than the proxy with one module script and no import map. The
// card renders its poll, read from the proxy named by `data-proxy`, and a fan signs in and votes from it (the
// sign-in and vote code comes in chunks from the same folder); the platform records the fan's answer.
import { readFile, readdir } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { ensurePackageBuilt } from '../support/vite-build.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { fanPages, recordFanPosts } from './widget-fan-page.ts';
import { launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

// The popup helpers need no demo page.
const { signInAndVote } = fanPages(() => {
  throw new Error('This test has no demo page.');
});

const packageFolder = fileURLToPath(new URL('../../dist/package/', import.meta.url));
const types: Readonly<Record<string, string>> = {
  '.js': 'text/javascript',
  '.html': 'text/html; charset=utf-8',
};

let browser: Browser;
let stack: SandboxAndProxy;
let site: { url: string; close: () => Promise<void> };
let page = '';

beforeAll(async () => {
  ensurePackageBuilt();
  // A static host: the page at `/`, the package's files under `/npm/fan-polls/` (as jsDelivr and unpkg lay them out).
  const server = await listenOnLoopback(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/') return new Response(page, { headers: { 'Content-Type': types['.html']! } });
    const file = /^\/npm\/fan-polls\/([\w./-]+)$/.exec(path)?.[1];
    if (!file || file.includes('..')) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(packageFolder + file);
      return new Response(body, { headers: { 'Content-Type': types[extname(file)] ?? 'text/plain' } });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  }, 0);
  site = { url: onAnotherSite(server.url), close: () => closeServer(server.server) };
  stack = await startStackAllowing(site.url, { simulate: false });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await site.close();
});

describe('the package’s browser build on a plain page', () => {
  it('has no bare module specifiers: every import is relative', async () => {
    const folder = `${packageFolder}cdn/`;
    const files = (await readdir(folder, { recursive: true })).filter((file) => file.endsWith('.js'));
    expect(files).toContain('fan-polls.js');
    for (const file of files) {
      const code = await readFile(folder + file, 'utf8');
      // A bare specifier (`lit`, `@lit/reactive-element`) after `from` or in `import(...)`; relative ones start with a dot.
      const bare = [
        ...code.matchAll(/(?:\bfrom|\bimport\s*\()\s*["'`](@?[a-z][\w.-]*(?:\/[\w./-]+)?)["'`]/gi),
      ];
      expect(
        bare.map((match) => match[1]),
        file,
      ).toEqual([]);
    }
  });

  it('renders a card from the proxy with one script tag and no import map, and a fan votes from it', async () => {
    const poll = await openRiversidePollFromProxy(stack.proxy.url);
    page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Club page</title>
<script type="module" src="/npm/fan-polls/cdn/fan-polls.js" data-proxy="${stack.proxy.url}"></script></head>
<body><fan-poll poll-id="${poll.id}" campaign="cdn"></fan-poll></body></html>`;
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(error.message));
    tab.on('requestfailed', (request) => problems.push(`${request.url()} failed`));
    tab.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico'))
        problems.push(`${response.status()} ${response.url()}`);
    });
    await tab.goto(site.url);
    const card = tab.locator('fan-poll');
    const question = card.locator('[part="question"]');
    await expect.poll(() => question.textContent(), { timeout: 20_000 }).toBe(poll.question);
    await card.getByRole('button', { name: 'Sign in to vote' }).waitFor();
    const fan = { context: tab.context(), page: tab, card, ...recordFanPosts(tab) };
    const { answerId } = await signInAndVote(fan, 0, 'sam');
    expect(await recordedAnswerIds(stack.sandbox.sandbox, poll.id, 'sam')).toEqual([answerId]);
    await tab.screenshot({ path: screenshotPath('package-cdn-voted.png') });
    expect(problems).toEqual([]);
    await tab.close();
  });
});
