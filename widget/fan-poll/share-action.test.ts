import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineElements } from '../define-elements.ts';
import { settle } from '../test-support/settle.ts';
import { fakeChannel, fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import type { FanPollShareEvent } from '../events/fan-poll-share-event.ts';
import type { FanPoll } from './fan-poll.ts';
import { cardDetails } from './details-part.ts';

await defineElements();
await cardDetails.load();

const proxy = 'https://polls.club.example';
const pollId = '3f2b8a1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const tracking = { referrer: 'club-site', campaign: 'derby' };
const shareLink = `${proxy}/share/polls/${pollId}?referrer=club-site&campaign=derby`;

async function mount(poll: ReturnType<typeof pollIn>, voted: boolean): Promise<FanPoll> {
  const card = document.createElement('fan-poll');
  for (const [name, value] of Object.entries({ 'poll-id': pollId, eager: '', proxy, ...tracking }))
    card.setAttribute(name, value);
  card.store = fakeStore({ status: 'ready', poll: { ...poll, id: pollId }, fetchedAt: Date.now() });
  card.channel = fakeChannel({
    signedIn: true,
    fanView: voted
      ? { userVote: true, answers: [{ id: 'a1', voteStatus: 'pending' }] }
      : { userVote: false, answers: [] },
  }).channel;
  document.body.append(card);
  await settle(card);
  return card;
}

const shareButton = (card: FanPoll) => card.shadowRoot!.querySelector<HTMLButtonElement>('[part="share"]');

function heardShares(): FanPollShareEvent['detail'][] {
  const heard: FanPollShareEvent['detail'][] = [];
  document.addEventListener('fan-poll-share', (event) => heard.push(event.detail));
  return heard;
}

/** Navigator properties a test set on the page's navigator, taken away after it. */
const stubbed: string[] = [];
function stubNavigator(values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(navigator, key, { value, configurable: true });
    stubbed.push(key);
  }
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  for (const key of stubbed.splice(0)) Reflect.deleteProperty(navigator, key);
});

describe('the card’s share action', () => {
  it('is offered once the fan voted and on a closed poll, not before the vote', async () => {
    expect(shareButton(await mount(pollIn('open'), false))).toBeNull();
    expect(shareButton(await mount(pollIn('open'), true))?.textContent.trim()).toBe('Share this poll');
    expect(shareButton(await mount(pollIn('closed'), false))).not.toBeNull();
  });

  it('hands the share link to the browser’s share sheet where there is one', async () => {
    const shareSheet = vi.fn((_data: ShareData) => Promise.resolve());
    stubNavigator({ share: shareSheet, canShare: () => true });
    const heard = heardShares();
    const card = await mount(pollIn('open'), true);
    shareButton(card)!.click();
    await settle(card);
    expect(shareSheet).toHaveBeenCalledWith({ title: 'Who was the player of the match?', url: shareLink });
    expect(heard).toEqual([{ pollId, tracking, url: shareLink, via: 'share-sheet' }]);
  });

  it('copies the link where there is none, and says so', async () => {
    const writeText = vi.fn((_text: string) => Promise.resolve());
    stubNavigator({ share: undefined, clipboard: { writeText } });
    const heard = heardShares();
    const card = await mount(pollIn('disclosed'), false);
    shareButton(card)!.click();
    await settle(card);
    expect(writeText).toHaveBeenCalledWith(shareLink);
    expect(card.shadowRoot!.querySelector('[part="next"] [role="status"]')?.textContent).toBe('Link copied');
    expect(heard).toEqual([{ pollId, tracking, url: shareLink, via: 'clipboard' }]);
  });

  it('fires nothing when the fan closes the share sheet', async () => {
    stubNavigator({ share: () => Promise.reject(new DOMException('closed', 'AbortError')) });
    const heard = heardShares();
    const card = await mount(pollIn('open'), true);
    shareButton(card)!.click();
    await settle(card);
    expect(heard).toEqual([]);
  });
});
