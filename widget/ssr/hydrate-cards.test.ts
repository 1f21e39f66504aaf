import { afterEach, describe, expect, it } from 'vitest';
import { pollFixture } from '../../src/polls/poll-fixture.ts';
import type { FanPoll } from '../fan-poll/fan-poll.ts';
import { prepareServerCards } from './hydrate-cards.ts';
import { serverPollBlock } from './server-poll-data.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A card as the entry leaves it once drawn: the page's attributes, a shadow root, the poll's data block. */
function drawnCard(attributes: Record<string, string>, pollId: string): FanPoll {
  const card = document.createElement('fan-poll');
  for (const [name, value] of Object.entries(attributes)) card.setAttribute(name, value);
  card.attachShadow({ mode: 'open' });
  card.insertAdjacentHTML('beforeend', serverPollBlock(pollFixture({ id: pollId })));
  document.body.append(card);
  return card;
}

describe('prepareServerCards', () => {
  it('gives a drawn `current` card the poll the proxy picked and its id, and a card with a poll id only the poll', async () => {
    const current = drawnCard({ current: '', 'partner-ids': 'club', lang: 'en' }, 'picked');
    const named = drawnCard({ 'poll-id': 'named', lang: 'en' }, 'named');
    const both = drawnCard({ current: '', 'poll-id': 'named', lang: 'en' }, 'named');
    await prepareServerCards(document);
    expect(current.serverPoll?.id).toBe('picked');
    expect(Object.hasOwn(current, 'pollId') && current.pollId).toBe('picked');
    expect(named.serverPoll?.id).toBe('named');
    // Its attribute names the poll once the element is defined: no own property stands in its way.
    for (const card of [named, both]) expect(Object.hasOwn(card, 'pollId')).toBe(false);
    // The data blocks are taken out of the light DOM.
    expect(document.querySelectorAll('script').length).toBe(0);
  });
});

describe('a drawn card’s buttons before it is live', () => {
  it('say they are getting ready while its parts load, and get their own look back just before it goes live', async () => {
    const card = drawnCard({ 'poll-id': 'ended', lang: 'en' }, 'ended');
    card.shadowRoot!.innerHTML = `<div part="actions"><button part="button" aria-disabled="false">Sign in to vote</button>
      </div><button part="share">Share</button>`;
    const looks = () =>
      [...card.shadowRoot!.querySelectorAll('button')].map((button) => button.getAttribute('aria-disabled'));
    const prepared = prepareServerCards(document);
    // Synchronously, before any part has loaded.
    expect(looks()).toEqual(['true', 'true']);
    await prepared;
    expect(looks()).toEqual(['false', null]);
  });
});
