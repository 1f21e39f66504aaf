// A vote on a slow platform (the sandbox's latency fault): the proxy cannot learn the outcome within its 8 s route
// deadline and answers `vote_uncertain`; the card settles it by re-reading the fan's poll and shows the vote the
// platform recorded, which is exactly one.
import type { Request } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { screenshotPath } from '../support/screenshots.ts';
import { demoCardVoteUrl } from './demo-card-urls.ts';
import { answerTextOf, useFanStack } from './widget-fan-page.ts';

// No simulated fans: the poll's votes are the fan's own.
const fans = useFanStack();
const { openAsNewFan, openSignIn, signInAs } = fans;

afterEach(() => {
  fans.stack.sandbox.sandbox.state.faults.clear();
});

/**
 * Every platform request takes 6 s: the vote is recorded after 6 s, past the proxy's 5.5 s for it, and the proxy's
 * re-read cannot answer by its 8 s deadline, so the card hears `vote_uncertain`; its own re-read (6 s, inside its
 * 10 s timeout) then sees the vote.
 */
const platformLatencyMs = 6000;

describe('a vote on a slow platform (Chromium, demo page, proxy popup)', () => {
  it('ends "You voted for X" when the proxy could not confirm the vote, and the platform has exactly one', async () => {
    // The one-line script tag's page: the settling of a vote is a chunk of its own there (the recommended snippet's
    // hydrating bundle has it inline).
    const fan = await openAsNewFan('/?embed=script-tag');
    const { card, page } = fan;
    const pollId = (await card.getAttribute('poll-id'))!;
    const errors = await page.evaluateHandle(() => {
      const seen: string[] = [];
      document.addEventListener('fan-poll-error', (event) => seen.push(event.detail.code));
      return seen;
    });
    const answer = card.locator('[part~="answer"]').first();
    const answerId = await answer.locator('input').evaluate((input) => (input as HTMLInputElement).value);
    const answerText = await answerTextOf(answer);
    await answer.locator('input').check();
    // After sign-in the card reads the fan's vote; until that read is in, a click on Vote is ignored (one action at a
    // time), so the test waits for it before clicking.
    const fanViewRead = page.waitForResponse(
      (response) =>
        response.request().method() === 'GET' &&
        new URL(response.url()).pathname.endsWith(`/user/polls/${pollId}`),
      { timeout: 30_000 },
    );
    await signInAs(await openSignIn(fan), 'sam');
    const vote = card.getByRole('button', { name: 'Vote', exact: true });
    await vote.waitFor();
    await (await fanViewRead).finished();
    await card.locator('[part="button"][aria-disabled="false"]', { hasText: 'Vote' }).waitFor();
    const sandboxPoll = () => fans.stack.sandbox.sandbox.state.polls.find(pollId)!;
    const votesBefore = sandboxPoll().votes.length;
    const isVotePost = (request: Request) =>
      request.method() === 'POST' && request.url() === demoCardVoteUrl(fans.stack.proxy.url, pollId);
    // The vote's request ends either with the proxy's answer or, on a loaded machine, aborted by the card's own 10 s
    // timeout: both are the doubts the card settles by re-reading.
    const voteEnded = Promise.race([
      page
        .waitForEvent('requestfinished', { predicate: isVotePost, timeout: 30_000 })
        .then((request) => ({ request })),
      page
        .waitForEvent('requestfailed', { predicate: isVotePost, timeout: 30_000 })
        .then(() => ({ request: undefined })),
    ]);
    // What the page asks for, in order: after the proxy's answer, the settling code and a re-read of the fan's poll.
    const requested: string[] = [];
    page.on('request', (request) => requested.push(`${request.method()} ${new URL(request.url()).pathname}`));

    fans.stack.sandbox.sandbox.state.faults.setLatency(platformLatencyMs);
    const started = Date.now();
    await vote.click();
    const { request: finished } = await voteEnded;
    const endedAfterMs = Date.now() - started;
    const answered = await finished?.response();
    if (answered) {
      // The proxy could not learn the outcome within its route deadline, and said so before the card's 10 s.
      expect(answered.status()).toBe(502);
      expect(((await answered.json()) as { error: { code: string } }).error.code).toBe('vote_uncertain');
      expect(endedAfterMs).toBeLessThan(10_000);
    }
    // The whole action area (always there for an open poll), and the card's error events, so that a failure shows.
    const actions = card.locator('[part="actions"]');
    await expect
      .poll(async () => `${await actions.textContent()} ${JSON.stringify(await errors.jsonValue())}`, {
        timeout: 20_000,
        interval: 250,
      })
      .toMatch(new RegExp(`^\\s*You voted for ${escapeRegExp(answerText)}`));
    await card.screenshot({ path: screenshotPath('widget-slow-vote-settled.png') });

    // Settled by a re-read, never by a second vote: after the vote, the settling code (loaded only when a vote fails),
    // then a read of the fan's poll; no error was shown or fired.
    const posted = requested.indexOf(`POST /api/user/polls/${pollId}/vote`);
    const settling = requested.findIndex((line) =>
      /^GET \/widget\/chunks\/settle-vote-[\w-]+\.js$/.test(line),
    );
    expect(settling, requested.join('\n')).toBeGreaterThan(posted);
    expect(requested.indexOf(`GET /api/user/polls/${pollId}`, settling)).toBeGreaterThan(settling);
    expect(fan.votePosts).toHaveLength(1);
    expect(await errors.jsonValue()).toEqual([]);
    expect(await card.locator('[part="status"]').count()).toBe(0);
    expect(await card.locator('[part="actions"] button').count()).toBe(0);
    // What the platform recorded: exactly one vote, for the answer the card shows.
    const added = sandboxPoll().votes.slice(votesBefore);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ answerId });
    await fan.context.close();
  }, 60_000);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
