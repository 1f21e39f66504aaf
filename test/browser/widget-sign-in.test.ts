// A fan without the extension signs in through the partner proxy's popup and votes from a card on the demo page.
import { describe, expect, it } from 'vitest';
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';
import { demoCardSignInUrl, demoCardVoteUrl } from './demo-card-urls.ts';
import { afterCardsSettle, answerTextOf, useFanStack } from './widget-fan-page.ts';

const fans = useFanStack();
const { openAsNewFan, openSignIn, signInAs } = fans;

const upstreamVotes = (): number =>
  fans.stack.upstream.filter((request) => request.method === 'POST' && request.path.endsWith('/vote')).length;

describe('signing in and voting without the extension (Chromium, demo page, proxy popup)', () => {
  it('signs in through the popup, votes once, and shows the vote and its status', async () => {
    const fan = await openAsNewFan();
    const { card, page } = fan;
    const events = page.evaluateHandle(() => {
      const seen: string[] = [];
      for (const name of ['fan-poll-sign-in', 'fan-poll-vote', 'fan-poll-voted'])
        document.addEventListener(name, (event) => {
          const detail = (event as CustomEvent<{ stage?: string }>).detail;
          seen.push(detail.stage ? `${name}:${detail.stage}` : name);
        });
      return seen;
    });
    const answer = card.locator('[part~="answer"]').nth(1);
    const answerText = await answerTextOf(answer);
    await answer.locator('input').check();

    const signIns: string[] = [];
    fan.context.on('request', (request) => {
      if (new URL(request.url()).pathname === proxyRoutes.signIn) signIns.push(request.url());
    });
    const popup = await openSignIn(fan);
    expect(new URL(popup.url()).origin).toBe(fans.stack.sandbox.authUrl);
    // The popup asked the proxy for the sign-in from the card's poll, with the card's tracking parameters.
    const pageOrigin = new URL(page.url()).origin;
    const pollId = (await card.getAttribute('poll-id'))!;
    expect(signIns).toEqual([
      demoCardSignInUrl(fans.stack.proxy.url, pollId, { origin: pageOrigin, handoff: '1' }),
    ]);
    await signInAs(popup, 'sam');

    const vote = card.getByRole('button', { name: 'Vote', exact: true });
    await vote.waitFor();
    expect(fan.votePosts).toEqual([]);
    // The popup's handoff code was redeemed from the card's page, once, before the card offered the vote.
    expect(fan.handoffPosts).toEqual([`${fans.stack.proxy.url}${proxyRoutes.sessionHandoff}`]);
    // A rapid double click, then the card must not offer a second vote at all.
    const upstreamBefore = upstreamVotes();
    await vote.dblclick();
    const note = card.locator('[part="actions"] .note');
    await expect
      .poll(() => note.textContent(), { timeout: 15_000 })
      .toMatch(
        new RegExp(`You voted for ${escapeRegExp(answerText)} \\((being confirmed|confirmed|[^)]+)\\)`),
      );
    expect(await card.locator('[part="actions"] button').count()).toBe(0);
    // Clicking around after the vote (the answers are disabled now) sends nothing either.
    await card.locator('[part~="answer"]').first().click({ force: true });
    await afterCardsSettle(page, card);
    expect(fan.votePosts).toHaveLength(1);
    expect(fan.votePosts[0]).toBe(
      demoCardVoteUrl(fans.stack.proxy.url, (await card.getAttribute('poll-id'))!),
    );
    expect(upstreamVotes() - upstreamBefore).toBe(1);
    expect(fan.handoffPosts).toHaveLength(1);
    expect(await (await events).jsonValue()).toEqual([
      'fan-poll-sign-in:started',
      'fan-poll-sign-in:signed-in',
      'fan-poll-vote',
      'fan-poll-voted',
    ]);
    await fan.context.close();
  });

  it('tells a fan who holds none of the club’s tokens so, after one vote request and no second', async () => {
    const fan = await openAsNewFan();
    const { card, page } = fan;
    const codes = page.evaluateHandle(() => {
      const seen: string[] = [];
      document.addEventListener('fan-poll-error', (event) => {
        seen.push(event.detail.code);
      });
      return seen;
    });
    // Told before any sign-in who may vote here.
    const club = (await card.locator('[part="partner"]').textContent())!.trim();
    expect(await card.locator('[part="actions"] .note').textContent()).toBe(`For ${club} token holders`);
    await card.locator('[part~="answer"]').first().locator('input').check();
    await signInAs(await openSignIn(fan), 'jo');
    expect(fan.handoffPosts).toHaveLength(1);
    const upstreamBefore = upstreamVotes();
    await card.getByRole('button', { name: 'Vote', exact: true }).click();
    const note = card.locator('[part="actions"] .note');
    await expect
      .poll(() => note.textContent(), { timeout: 15_000 })
      .toMatch(
        /^Only .+ fan token holders can vote\. Get the club’s fan tokens in the Socios\.com app, or sign in with another account\.$/,
      );
    expect(await card.locator('[part="actions"] button').count()).toBe(0);
    expect(await card.locator('[part="status"]').count()).toBe(0);
    // Nothing left to click: the answers are disabled, and clicking them sends nothing.
    await card.locator('[part~="answer"]').nth(1).click({ force: true });
    await afterCardsSettle(page, card);
    expect(fan.votePosts).toHaveLength(1);
    expect(upstreamVotes() - upstreamBefore).toBe(1);
    expect(await (await codes).jsonValue()).toEqual(['not-holder']);
    await fan.context.close();
  });

  it('ends a refusal on the consent page in a clear state: signed out, told so, free to try again', async () => {
    const fan = await openAsNewFan();
    const popup = await openSignIn(fan);
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Deny' }).click()]);
    const status = fan.card.locator('[part="status"]');
    await expect.poll(() => status.textContent()).toBe('Sign-in was cancelled. You can try again.');
    const signIn = fan.card.getByRole('button', { name: 'Sign in to vote' });
    expect(await signIn.getAttribute('aria-disabled')).toBe('false');
    expect(fan.votePosts).toEqual([]);
    expect(fan.handoffPosts).toEqual([]);
    await fan.context.close();
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
