import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineElements } from '../define-elements.ts';
import { settle } from '../test-support/settle.ts';
import { fakeChannel, fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { FanPollCurrentChangedEvent } from '../events/fan-poll-current-changed-event.ts';
import type { FanPoll } from './fan-poll.ts';
import { cardDetails } from './details-part.ts';

await defineElements();
await cardDetails.load();

const partner = '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61';
const proxy = 'https://polls.club.example';

/** The proxy's answers to the current-poll question, in turn (the last one repeats); the questions asked. */
function proxyAnswering(...answers: (Poll | null)[]): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (input: string) => {
    asked.push(input);
    const data = answers.length > 1 ? answers.shift() : answers[0];
    return Promise.resolve(Response.json({ data }));
  });
  return asked;
}

async function mount(attributes: Record<string, string>): Promise<FanPoll> {
  const card = document.createElement('fan-poll');
  for (const [name, value] of Object.entries({ current: '', proxy, eager: '', ...attributes }))
    card.setAttribute(name, value);
  card.store = fakeStore();
  card.channel = fakeChannel().channel;
  document.body.append(card);
  await settle(card);
  await vi.waitFor(
    () => card.shadowRoot?.querySelector('[part="question"]') ?? Promise.reject(new Error('no poll')),
  );
  return card;
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a current card', () => {
  it('asks the proxy for its clubs’ current poll and shows it, with no switch event for the first', async () => {
    const asked = proxyAnswering(pollIn('open', { id: 'poll-a', question: 'First?' }));
    const switches: unknown[] = [];
    document.addEventListener('fan-poll-current-changed', (event) => switches.push(event.detail));
    const card = await mount({ 'partner-ids': `${partner.toUpperCase()}, ${partner}` });
    expect(asked[0]).toBe(`${proxy}/api/polls/current?partnerIds[]=${partner}`);
    expect(card.pollId).toBe('poll-a');
    expect(card.shadowRoot!.querySelector('[part="question"]')?.textContent).toBe('First?');
    expect(switches).toEqual([]);
  });

  it('asks once for the page’s cards of the same clubs', async () => {
    const asked = proxyAnswering(pollIn('open', { id: 'poll-a', question: 'First?' }));
    const cards = await Promise.all([mount({ 'partner-ids': partner }), mount({ 'partner-ids': partner })]);
    expect(cards.map((card) => card.pollId)).toEqual(['poll-a', 'poll-a']);
    expect(asked).toHaveLength(1);
  });

  it('switches when the poll it shows closes by its dates, and says so', async () => {
    const closing = pollIn('open', {
      id: 'poll-a',
      question: 'First?',
      closeAt: new Date(Date.now() + 300).toISOString(),
    });
    const next = pollIn('open', { id: 'poll-b', question: 'Second?' });
    proxyAnswering(closing, next);
    const card = await mount({ 'partner-ids': partner, referrer: 'club-site' });
    const switched = new Promise<FanPollCurrentChangedEvent>((resolve) => {
      card.addEventListener('fan-poll-current-changed', resolve, { once: true });
    });
    // The card's one-second clock sees the close; the event is what the test waits for.
    const event = await switched;
    expect(event.detail).toEqual({
      pollId: 'poll-b',
      previousPollId: 'poll-a',
      tracking: { referrer: 'club-site' },
      phase: 'open',
    });
    await settle(card);
    expect(card.shadowRoot!.querySelector('[part="question"]')?.textContent).toBe('Second?');
    expect(card.shadowRoot!.querySelector('[role="status"][aria-live="polite"]')?.textContent).toBe(
      'Now showing the club’s current poll: Second?',
    );
  });

  it('keeps the poll it showed when the proxy names none any more', async () => {
    const closing = pollIn('open', {
      id: 'poll-a',
      question: 'First?',
      closeAt: new Date(Date.now() + 300).toISOString(),
    });
    const asked = proxyAnswering(closing, null);
    const card = await mount({ 'partner-ids': partner });
    // Asked again once the card's one-second clock sees the close.
    await vi.waitFor(
      () => {
        expect(asked.length).toBeGreaterThan(1);
      },
      { timeout: 5000 },
    );
    await settle(card);
    await vi.waitFor(() => {
      expect(card.pollId).toBe('poll-a');
      expect(card.shadowRoot!.querySelector('[part="question"]')?.textContent).toBe('First?');
    });
  });

  it('says in the console what a card without partner ids lacks, and asks nothing', async () => {
    const asked = proxyAnswering(null);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const card = document.createElement('fan-poll');
    card.setAttribute('current', '');
    card.setAttribute('partner-ids', 'club');
    card.setAttribute('proxy', proxy);
    document.body.append(card);
    await vi.waitFor(() => {
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('needs partner-ids'), card);
    });
    expect(asked).toEqual([]);
  });
});
