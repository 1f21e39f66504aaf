// A club's fresh Vite + React + TypeScript app (`react-app/`: its own package.json, tsconfig and sources) with the
// npm package as npm publishes it: packed, installed offline, type-checked by the app's own `tsc --noEmit` (error
// codes as a union, the three tags as JSX intrinsic elements, the React props; no cast), built by the app's own Vite,
// and served on another site than the proxy. In Chromium the card and the list (the plain `<fan-poll-list>` tag)
// render, a fan signs in and votes through the card, React's event props receive every event with its detail and
// the tracking props, and the platform records exactly the fan's answer. The banner (`FanPollFrame`) loads its
// element from the proxy's versioned URL and its events reach React too.
import { execFile } from 'node:child_process';
import { cp, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { createPackedPackageProject } from '../support/packed-package-project.ts';
import type { PageServer } from '../support/page-server.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { serveStaticFolder } from '../support/static-folder.ts';
import { fanPages, recordFanPosts } from './widget-fan-page.ts';
import { launchChromium, onAnotherSite, startStackAllowing } from './widget-stack.ts';

const run = promisify(execFile);
const appSources = fileURLToPath(new URL('react-app/', import.meta.url));

let browser: Browser;
let stack: SandboxAndProxy;
let project = '';
let site: PageServer;
let appUrl = '';
let poll: Poll;

/** What one of the app's event props received (the app lists each as JSON). */
interface SeenEvent {
  readonly source: 'card' | 'banner';
  readonly type: string;
  readonly detail: unknown;
}

/** Runs one of the app's own tools (`tsc`, `vite`) in the app's folder, as its npm scripts would. */
function runInApp(tool: string, args: readonly string[]): Promise<{ stdout: string }> {
  return run(process.execPath, [join(project, 'node_modules', tool), ...args], {
    cwd: project,
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

beforeAll(async () => {
  project = await createPackedPackageProject({
    dependencies: ['react', 'react-dom'],
    devDependencies: ['typescript', 'vite', '@types/react', '@types/react-dom'],
  });
  await cp(appSources, project, { recursive: true });
  await runInApp('vite/bin/vite.js', ['build', '--logLevel', 'warn']);
  const server = await serveStaticFolder(join(project, 'dist'));
  // Another site than the proxy (http://localhost:<port>): Chromium resolves localhost to loopback itself.
  appUrl = onAnotherSite(server.url);
  site = server;
  stack = await startStackAllowing(appUrl, { simulate: false });
  poll = await openRiversidePollFromProxy(stack.proxy.url);
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser.close();
  await stack.close();
  await site.close();
  if (project) await rm(project, { recursive: true, force: true });
});

// The popup helpers need no demo page.
const { signInAndVote } = fanPages(() => {
  throw new Error('This test has no demo page.');
});

async function seenEvents(page: Page): Promise<SeenEvent[]> {
  const lines = await page.locator('#events li').allTextContents();
  return lines.map((line) => JSON.parse(line) as SeenEvent);
}

/** Every type assertion (`x as T`, `<T>x`) and non-null assertion (`x!`) in `code`; `as const` is no cast. */
function castsIn(fileName: string, code: string): string[] {
  const file = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const casts: string[] = [];
  const visit = (node: ts.Node): void => {
    const constAssertion = ts.isAsExpression(node) && node.type.getText(file) === 'const';
    if (
      (ts.isAsExpression(node) && !constAssertion) ||
      ts.isTypeAssertionExpression(node) ||
      ts.isNonNullExpression(node)
    )
      casts.push(`${fileName}: ${node.getText(file)}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return casts;
}

describe('a fresh Vite + React + TypeScript app with the packed fan-polls', () => {
  it('passes the app’s own tsc --noEmit, with no cast anywhere in its sources', async () => {
    await expect(runInApp('typescript/bin/tsc', ['--noEmit', '-p', 'tsconfig.json'])).resolves.toMatchObject({
      stdout: '',
    });
    const sources = await readdir(join(project, 'src'));
    expect(sources.sort()).toEqual(['App.tsx', 'main.tsx']);
    for (const source of sources)
      expect(castsIn(source, await readFile(join(project, 'src', source), 'utf8'))).toEqual([]);
  }, 60_000);

  it('renders the card and the banner, votes through the card, and hands React every event', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    const thrown: string[] = [];
    page.on('pageerror', (error) => thrown.push(error.message));
    const posts = recordFanPosts(page);
    await page.goto(
      `${appUrl}/?proxy=${encodeURIComponent(stack.proxy.url)}&poll=${poll.id}&partner=${poll.partnerId}`,
    );
    const card = page.locator('main > fan-poll');
    await card.locator('[part="question"]').waitFor();
    // The banner's element came from the proxy, pinned to the package's version, and its card is framed.
    await page.frameLocator('fan-poll-frame iframe').locator('fan-poll [part="question"]').waitFor();
    await expect
      .poll(async () => (await seenEvents(page)).map((event) => `${event.source} ${event.type}`).sort())
      .toEqual(['banner fan-poll-ready', 'card fan-poll-ready']);
    const frameSource = await page.locator('fan-poll-frame iframe').getAttribute('src');
    expect(frameSource).toMatch(
      new RegExp(`^${stack.proxy.url}/widget/v\\d+\\.\\d+\\.\\d+/embed/poll\\.html\\?`),
    );
    // Attributes written from React props: the tracking parameters the card reads, the list's filters.
    expect(await card.getAttribute('campaign')).toBe('wrapper');
    const listed = page.locator('fan-poll-list fan-poll');
    await listed.first().locator('[part="question"]').waitFor();
    expect(await page.locator('fan-poll-list').getAttribute('partner-ids')).toBe(poll.partnerId);
    expect(await listed.count()).toBeLessThanOrEqual(2);
    expect(await listed.first().getAttribute('campaign')).toBe('list');

    await card.locator('[part~="answer"]').first().waitFor();
    await card.getByRole('button', { name: 'Sign in to vote' }).waitFor();
    const { answerId } = await signInAndVote({ context, page, card, ...posts }, 1, 'sam');
    await page.screenshot({ path: screenshotPath('react-app-voted.png'), fullPage: true });

    const tracking = { referrer: 'react-app', campaign: 'wrapper' };
    await expect
      .poll(async () => (await seenEvents(page)).map((event) => event.type))
      .toContain('fan-poll-voted');
    const cardEvents = (await seenEvents(page)).filter((event) => event.source === 'card');
    expect(cardEvents.map((event) => event.type)).toEqual([
      'fan-poll-ready',
      'fan-poll-sign-in',
      'fan-poll-sign-in',
      'fan-poll-vote',
      'fan-poll-voted',
    ]);
    expect(cardEvents[0]?.detail).toEqual({ pollId: poll.id, tracking, phase: 'open' });
    expect(cardEvents[2]?.detail).toEqual({ pollId: poll.id, tracking, stage: 'signed-in', via: 'popup' });
    expect(cardEvents[3]?.detail).toEqual({ pollId: poll.id, tracking, answerId });
    expect(cardEvents[4]?.detail).toMatchObject({ pollId: poll.id, tracking, answerId });
    expect(posts.votePosts).toHaveLength(1);

    // What the platform recorded: exactly the fan's answer.
    expect(await recordedAnswerIds(stack.sandbox.sandbox, poll.id, 'sam')).toEqual([answerId]);
    expect(thrown).toEqual([]);
    await context.close();
  });
});
