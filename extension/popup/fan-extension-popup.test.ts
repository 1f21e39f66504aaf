import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { answerFixture } from '../../src/polls/poll-fixture.ts';
import { defineBundledElements } from '../../widget/define-bundled-elements.ts';
import type { FanPoll } from '../../widget/fan-poll/fan-poll.ts';
import { pollIn } from '../../widget/test-support/card-fixtures.ts';
import { fakeBackground, type Answers } from '../testing/fake-background.ts';
import { FanExtensionPopup } from './fan-extension-popup.ts';

defineBundledElements();

const pollId = '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';
const answerA = '21111111-2222-4333-8444-555555555555';
const answerB = '31111111-2222-4333-8444-555555555555';

/** An open poll of the fan; after `voted`, the platform has their vote on answer B with `voteStatus`. */
function fanPoll(voted?: { voteStatus: string }): Poll {
  return pollIn('open', {
    id: pollId,
    userVote: voted !== undefined,
    answers: [
      answerFixture({ id: answerA, answer: 'Ada', totalVoteTokensUsed: 30 }),
      answerFixture({ id: answerB, answer: 'Bea', totalVoteTokensUsed: 10, ...(voted ?? {}) }),
    ],
  });
}

function mountPopup(answers: Answers) {
  const background = fakeBackground({
    'session-status': () => ({ signedIn: true, userId: 'fan-1' }),
    ...answers,
  });
  const popup = new FanExtensionPopup();
  popup.client = background.client;
  document.body.append(popup);
  return { popup, asked: background.asked };
}

const card = (popup: FanExtensionPopup): FanPoll | null | undefined =>
  popup.shadowRoot?.querySelector('fan-poll');
const cardText = (popup: FanExtensionPopup): string =>
  card(popup)?.shadowRoot?.textContent.replace(/\s+/g, ' ') ?? '';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the popup’s polls are the widget’s cards', () => {
  it('lists the fan’s polls as <fan-poll> cards and votes from the card’s own controls', async () => {
    let voted = false;
    const { popup, asked } = mountPopup({
      'user-polls': () => [fanPoll(voted ? { voteStatus: 'pending' } : undefined)],
      'user-poll': () => fanPoll(voted ? { voteStatus: 'pending' } : undefined),
      vote: () => {
        voted = true;
        return fanPoll({ voteStatus: 'pending' });
      },
    });
    await vi.waitFor(() => {
      expect(popup.shadowRoot?.querySelector('[data-testid="session"]')?.textContent).toContain('fan-1');
      expect(card(popup)?.shadowRoot?.querySelector('button')?.textContent.trim()).toBe('Vote');
    });
    expect(card(popup)?.getAttribute('poll-id')).toBe(pollId);
    expect(cardText(popup)).toContain('Who was the player of the match?');

    const radios = [...card(popup)!.shadowRoot!.querySelectorAll('input')];
    radios[1]!.click();
    card(popup)!.shadowRoot!.querySelector('button')!.click();
    await vi.waitFor(() => {
      expect(cardText(popup)).toContain('You voted for Bea (being confirmed)');
    });
    expect(asked.filter((each) => each.type === 'vote')).toEqual([
      { type: 'vote', payload: { pollId, answerId: answerB } },
    ]);
    // The cards read their polls through the background, batched by id.
    expect(asked).toContainEqual({ type: 'user-polls', payload: { userVoted: false, ids: [pollId] } });
  });

  it('shows the fan’s vote and its voteStatus on a poll that is closed', async () => {
    const closed = { ...fanPoll({ voteStatus: 'accepted' }), ...pollIn('closed', { id: pollId }) };
    const poll: Poll = { ...closed, userVote: true, answers: fanPoll({ voteStatus: 'accepted' }).answers };
    const { popup } = mountPopup({ 'user-polls': () => [poll], 'user-poll': () => poll });
    await vi.waitFor(() => {
      expect(cardText(popup)).toContain('You voted for Bea (confirmed)');
    });
  });

  it('asks for the polls the fan voted in when the filter is on', async () => {
    const { popup, asked } = mountPopup({ 'user-polls': () => [] });
    await vi.waitFor(() => {
      expect(popup.shadowRoot?.textContent).toContain('No polls.');
    });
    const filter = popup.shadowRoot!.querySelector<HTMLInputElement>('input[type="checkbox"]')!;
    filter.click();
    await vi.waitFor(() => {
      expect(asked).toContainEqual({ type: 'user-polls', payload: { userVoted: true } });
    });
  });

  it('shows a card’s ended session in the header', async () => {
    let signedIn = true;
    const { popup } = mountPopup({
      'session-status': () => (signedIn ? { signedIn: true, userId: 'fan-1' } : { signedIn: false }),
      'user-polls': () => [fanPoll()],
      'user-poll': () => fanPoll(),
      vote: () => {
        signedIn = false;
        return { refuse: { code: 'signed_out', message: 'Sign in with the Fan Polls extension first.' } };
      },
    });
    await vi.waitFor(() => {
      expect(card(popup)?.shadowRoot?.querySelector('button')?.textContent.trim()).toBe('Vote');
    });
    card(popup)!.shadowRoot!.querySelectorAll('input')[0]!.click();
    card(popup)!.shadowRoot!.querySelector('button')!.click();
    await vi.waitFor(() => {
      expect(popup.shadowRoot?.querySelector('[data-testid="session"]')?.textContent).toContain(
        'Not signed in',
      );
    });
    expect(card(popup)).toBeNull();
  });
});
