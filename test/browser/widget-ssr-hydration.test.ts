// A card rendered on the partner's server (`fan-polls/ssr`, Lit SSR) paints with the HTML and hydrates in the browser
// (`fan-polls-hydrate.js` from the proxy) without drawing its text again or moving the page; then it works: a
// signed-out visitor is asked to sign in, and after the proxy's popup the fan's vote goes through.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import type { Poll } from '../../src/platform/types.ts';
import { readPoll } from '../../widget/ssr/read-poll.ts';
import { renderFanPoll } from '../../widget/ssr/render-fan-poll.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { recordedAnswerIds } from '../support/recorded-vote.ts';
import { screenshotPath } from '../support/screenshots.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { answerTextOf, fanPages, recordFanPosts } from './widget-fan-page.ts';
import { ensureWidgetBuilt, launchChromium, startStackAllowing } from './widget-stack.ts';

let browser: Browser;
let stack: SandboxAndProxy;
let server: { url: string; close: () => Promise<void> };
let poll: Poll;

/** The partner's article page, rendered per request with the card drawn from the poll its server reads now. */
async function articlePage(pollId: string): Promise<string> {
  const proxy = stack.proxy.url;
  const card = await renderFanPoll(await readPoll(proxy, pollId), { proxy, pollId, campaign: 'ssr' });
  const text = '<p>' + 'Riverside came from behind at a rain-soaked Riverside Park. '.repeat(8) + '</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Match report</title>
<style>body { font: 16px/1.5 serif; max-width: 640px; margin: 2rem auto; }</style></head>
<body><h1>Late header settles the derby</h1>${text}${card}
<script>${recordHydration.toString()}; recordHydration();</script>${text.repeat(3)}
<script type="module" src="${proxy}/widget/fan-polls-hydrate.js" data-proxy="${proxy}"></script></body></html>`;
}

/**
 * Runs in the page, right after the card's markup (its declarative shadow root is attached by then), before any
 * script of the widget: records what changes in the card's shadow root and every layout shift from then on, and the
 * question's text node, which a hydration keeps and a new render would replace.
 */
function recordHydration(): void {
  const card = document.querySelector('fan-poll');
  const root = card?.shadowRoot;
  if (!root) throw new Error('The server-rendered card has no shadow root.');
  const record = {
    textBefore: root.textContent,
    questionNode: [...(root.querySelector('.question')?.childNodes ?? [])].find(
      (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
    ),
    changes: [] as string[],
    shifts: [] as number[],
  };
  Object.assign(window, { hydration: record });
  new MutationObserver((mutations) => {
    for (const each of mutations)
      if (each.type !== 'attributes') record.changes.push(`${each.type} in ${each.target.nodeName}`);
  }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries())
      record.shifts.push((entry as PerformanceEntry & { value: number }).value);
  }).observe({ type: 'layout-shift', buffered: true });
}

interface Hydration {
  readonly sameQuestionNode: boolean;
  readonly textBefore: string;
  readonly textAfter: string;
  readonly changes: string[];
  readonly shifts: number[];
}

function hydrationOf(page: Page): Promise<Hydration> {
  return page.evaluate(() => {
    const record = (window as unknown as { hydration: Hydration & { questionNode?: Node } }).hydration;
    const root = document.querySelector('fan-poll')?.shadowRoot;
    const question = root?.querySelector('.question');
    return {
      sameQuestionNode: !!record.questionNode && question?.contains(record.questionNode) === true,
      textBefore: record.textBefore,
      textAfter: root?.textContent ?? '',
      changes: record.changes,
      shifts: record.shifts,
    };
  });
}

beforeAll(async () => {
  ensureWidgetBuilt();
  const pollIdOf = (request: Request): string => new URL(request.url).searchParams.get('poll') ?? '';
  const listening = await listenOnLoopback(
    async (request) =>
      new Response(await articlePage(pollIdOf(request)), {
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      }),
    0,
  );
  server = { url: listening.url, close: () => closeServer(listening.server) };
  // No simulated fans: the poll's figures do not move while the test looks at the card.
  stack = await startStackAllowing(server.url, { simulate: false });
  poll = await openRiversidePollFromProxy(stack.proxy.url, 30 * 60_000);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
  await stack.close();
  await server.close();
});

// Only the popup helpers are used: they need the fan's context and card, not the demo stack.
const { openSignIn, signInAs } = fanPages(() => {
  throw new Error('This test opens its own page.');
});

describe('a card rendered on the partner’s server (Chromium)', () => {
  it('paints with the HTML, hydrates without redrawing or shifting, then signs a fan in and takes a vote', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const posts = recordFanPosts(page);
    const pollRead = page.waitForResponse((response) => response.url().includes('/api/polls?'));
    await page.goto(`${server.url}/?poll=${encodeURIComponent(poll.id)}`);
    const card = page.locator('fan-poll');

    // The HTML carries the poll's text and the card's markup, escaped, before any script ran.
    const html = await (await page.request.get(`${server.url}/?poll=${encodeURIComponent(poll.id)}`)).text();
    expect(html).toContain('<template shadowroot="open" shadowrootmode="open">');
    expect(html).toContain(escapeText(poll.question));

    // Hydrated: defined, updated, and its own read of the poll answered and rendered.
    await page.waitForFunction(() => customElements.get('fan-poll') !== undefined);
    await pollRead;
    await card.evaluate(async (element) => {
      await (element as HTMLElement & { updateComplete: Promise<boolean> }).updateComplete;
    });
    const signIn = card.locator('[part="button"]:not([aria-disabled="true"])', {
      hasText: 'Sign in to vote',
    });
    await signIn.waitFor();
    await page.screenshot({ path: screenshotPath('ssr-card-hydrated.png') });

    const hydration = await hydrationOf(page);
    expect(hydration.textAfter).toBe(hydration.textBefore);
    expect(hydration.changes).toEqual([]);
    expect(hydration.sameQuestionNode).toBe(true);
    expect(hydration.shifts).toEqual([]);

    // It works: sign in through the proxy's popup, pick an answer, vote.
    const answer = card.locator('[part~="answer"]').nth(1);
    const answerText = await answerTextOf(answer);
    await answer.locator('input').check();
    await signInAs(await openSignIn({ context, page, card, ...posts }), 'sam');
    await card.getByRole('button', { name: 'Vote', exact: true }).click();
    await expect
      .poll(() => card.locator('[part="actions"] .note').textContent(), { timeout: 15_000 })
      .toContain(`You voted for ${answerText}`);
    expect(posts.votePosts).toHaveLength(1);
    const chosen = await answer.locator('input').evaluate((input) => (input as HTMLInputElement).value);
    expect(await recordedAnswerIds(stack.sandbox.sandbox, poll.id, 'sam')).toContain(chosen);
    await page.screenshot({ path: screenshotPath('ssr-card-voted.png') });
    await context.close();
  });
});

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
