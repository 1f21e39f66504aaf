// Live shares for every visitor, in Chromium on the demo page: a visitor who is not signed in sees an open
// poll's percentages on a default card, and sees them follow the platform within 6 s of each change at the sandbox
// (one freshness window of the proxy, 5 s, plus a second): the card times its reads from the answers' `Age`.
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parsePollList } from '../../src/platform/parse.ts';
import { viewPoll } from '../../src/polls/poll-view.ts';
import { apiRequest, applicationToken, fanToken, voteRequest } from '../../src/sandbox/test-kit.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { useFanStack } from './widget-fan-page.ts';

// No simulated fans: the poll changes only when this test votes.
const fans = useFanStack();

/** The poll's percentages as the platform's tally gives them (the project's own rounding, as every card shows). */
async function sandboxPercentages(pollId: string): Promise<number[]> {
  const { sandbox } = fans.stack.sandbox;
  const answer = await apiRequest(sandbox, `/polls/1.0.8/polls?ids[]=${pollId}`, applicationToken(sandbox));
  const poll = parsePollList(await answer.json())[0]!;
  return viewPoll(poll, Date.now()).answers.map((each) => each.percentage);
}

/** The percentages the card shows, answer by answer (none while it shows no shares). */
function shownPercentages(card: Locator): Promise<number[]> {
  return card
    .locator('[part~="answer"] .percent')
    .evaluateAll((spans) => spans.map((span) => Number.parseFloat(span.textContent.replace(/[^\d.]/g, ''))));
}

describe('live shares for a visitor who is not signed in (Chromium, demo page)', () => {
  it(
    'shows an open poll’s percentages on a default card and follows each change at the platform within 6 s',
    { timeout: 90_000 },
    async () => {
      fans.stack.sandbox.sandbox.reset();
      const context = await fans.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(fans.stack.demo.url);
      const card = page.locator('fan-poll').first();
      await card.getByRole('button', { name: 'Sign in to vote' }).waitFor();
      const pollId = (await card.getAttribute('poll-id'))!;
      expect(await card.getAttribute('results')).toBeNull();
      await expect.poll(() => shownPercentages(card)).toEqual(await sandboxPercentages(pollId));

      // Fans vote at the platform: a seeded fan through its API, then rounds of the sandbox's simulated fans, until
      // the whole-number shares move; each change is on the card within one freshness window (5 s) plus a second.
      let before = await sandboxPercentages(pollId);
      const answerId = await card.locator('input[type="radio"]').first().inputValue();
      const vote = await voteRequest(
        fans.stack.sandbox.sandbox,
        fanToken(fans.stack.sandbox.sandbox, 'sam'),
        pollId,
        answerId,
      );
      expect(vote.status).toBe(201);
      for (let change = 0; change < 3; change += 1) {
        let after = await sandboxPercentages(pollId);
        for (let round = 0; round < 10 && after.join() === before.join(); round += 1) {
          fans.stack.sandbox.sandbox.simulation.simulateVotes(20);
          after = await sandboxPercentages(pollId);
        }
        expect(after).not.toEqual(before);
        await expect.poll(() => shownPercentages(card), { timeout: 6000, interval: 100 }).toEqual(after);
        before = after;
      }
      await card.screenshot({ path: screenshotPath('live-shares-followed.png') });
      await context.close();
    },
  );
});
