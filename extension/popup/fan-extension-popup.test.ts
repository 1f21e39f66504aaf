import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { answerFixture } from '../../src/polls/poll-fixture.ts';
import { defineBundledElements } from '../../widget/define-bundled-elements.ts';
import type { FanPoll } from '../../widget/fan-poll/fan-poll.ts';
import { pollIn } from '../../widget/test-support/card-fixtures.ts';
import { fakeBackground, type Answers } from '../testing/fake-background.ts';
import { FanExtensionPopup } from './fan-extension-popup.ts';

await defineBundledElements();

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

function mountPopup(answers: Answers, site?: { tabId: number; origin: string }) {
  const background = fakeBackground({
    'session-status': () => ({ signedIn: true, userId: 'fan-1' }),
    sites: () => [],
    ...answers,
  });
  const popup = new FanExtensionPopup();
  popup.client = background.client;
  popup.site = site;
  document.body.append(popup);
  return { popup, asked: background.asked };
}

/** Every element matching `selector` in the popup, its tabs' and parts' shadow roots included (each is an element). */
function findAll<E extends Element = Element>(popup: FanExtensionPopup, selector: string): E[] {
  const within = (root: ParentNode): E[] => [
    ...root.querySelectorAll<E>(selector),
    ...[...root.querySelectorAll('*')].flatMap((element) =>
      element.shadowRoot ? within(element.shadowRoot) : [],
    ),
  ];
  return popup.shadowRoot ? within(popup.shadowRoot) : [];
}

function find(popup: FanExtensionPopup, selector: string): HTMLElement | null {
  return findAll<HTMLElement>(popup, selector)[0] ?? null;
}

/** The popup's text as the fan reads it, across its parts' shadow roots (not into the cards). */
function popupText(popup: FanExtensionPopup): string {
  const within = (root: Node): string =>
    [...root.childNodes]
      .map((node) =>
        node instanceof Element && node.shadowRoot && node.localName !== 'fan-poll'
          ? within(node.shadowRoot)
          : node.nodeType === Node.ELEMENT_NODE
            ? within(node)
            : (node.textContent ?? ''),
      )
      .join('');
  return popup.shadowRoot ? within(popup.shadowRoot) : '';
}

const rows = (popup: FanExtensionPopup): HTMLButtonElement[] =>
  findAll<HTMLButtonElement>(popup, '[data-testid="poll-row"]');

/** Opens the first row into the widget's card, as the fan taps it. */
async function openFirstRow(popup: FanExtensionPopup): Promise<void> {
  await vi.waitFor(() => {
    expect(rows(popup).length).toBeGreaterThan(0);
  });
  rows(popup)[0]!.click();
}

const card = (popup: FanExtensionPopup): FanPoll | null | undefined =>
  findAll<FanPoll>(popup, 'fan-poll')[0] ?? null;
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
    await openFirstRow(popup);
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="session"]')?.textContent).toContain('fan-1');
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
    await openFirstRow(popup);
    expect(rows(popup)[0]?.textContent).toContain('You voted');
    await vi.waitFor(() => {
      expect(cardText(popup)).toContain('You voted for Bea (confirmed)');
    });
  });

  it('asks for the polls the fan voted in when the filter is on', async () => {
    const { popup, asked } = mountPopup({ 'user-polls': () => [] });
    await vi.waitFor(() => {
      expect(popupText(popup)).toContain('No polls.');
    });
    const filter = findAll<HTMLInputElement>(popup, 'input[type="checkbox"]')[0]!;
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
    await openFirstRow(popup);
    await vi.waitFor(() => {
      expect(card(popup)?.shadowRoot?.querySelector('button')?.textContent.trim()).toBe('Vote');
    });
    card(popup)!.shadowRoot!.querySelectorAll('input')[0]!.click();
    card(popup)!.shadowRoot!.querySelector('button')!.click();
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="session"]')?.textContent).toContain('Not signed in');
    });
    expect(card(popup)).toBeNull();
  });
});

describe('the popup’s compact list', () => {
  it('puts open polls first and pages them, with no card until a row is opened', async () => {
    const polls = [
      pollIn('closed', { id: '1c8d2e3f-4051-4b6c-9d7e-8f90a1b2c3d4', question: 'Closed one' }),
      ...Array.from({ length: 9 }, (_, n) =>
        pollIn('open', { id: `${n}b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3`, question: `Open ${n}` }),
      ),
    ];
    const { popup } = mountPopup({ 'user-polls': () => polls });
    await vi.waitFor(() => {
      expect(rows(popup)).toHaveLength(8);
    });
    expect(rows(popup).map((row) => row.querySelector('.question')?.textContent)).toEqual(
      Array.from({ length: 8 }, (_, n) => `Open ${n}`),
    );
    expect(card(popup)).toBeNull();
    findAll<HTMLButtonElement>(popup, 'button')
      .find((button) => button.textContent.trim() === 'Next')!
      .click();
    await vi.waitFor(() => {
      expect(rows(popup).map((row) => row.querySelector('.question')?.textContent)).toEqual([
        'Open 8',
        'Closed one',
      ]);
    });
  });
});

describe('the popup’s site of the tab', () => {
  const site = { tabId: 5, origin: 'https://club.example' };

  it('asks the browser for the site inside the click, then connects it and reloads the tab', async () => {
    const { popup, asked } = mountPopup(
      {
        'connect-site': ({ origin }) => [
          { origin, connectedAt: 1, activity: { reads: 0, proposals: 0, votes: 0 } },
        ],
      },
      site,
    );
    const requested: string[] = [];
    const reloaded: number[] = [];
    popup.requestSitePermission = (origin) => {
      requested.push(origin);
      return Promise.resolve(true);
    };
    popup.reloadTab = (tabId) => {
      reloaded.push(tabId);
      return Promise.resolve();
    };
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="this-site"]')?.textContent).toContain('It can never vote for you');
    });
    findAll<HTMLButtonElement>(popup, 'button')
      .find((b) => b.textContent.trim() === 'Connect this site')!
      .click();
    // Synchronously, in the click: the browser grants permissions only there.
    expect(requested).toEqual(['https://club.example']);
    await vi.waitFor(() => {
      expect(reloaded).toEqual([5]);
    });
    expect(asked).toContainEqual({ type: 'connect-site', payload: { origin: 'https://club.example' } });
    expect(find(popup, '[data-testid="this-site"]')?.textContent).toContain('is connected');
  });

  it('connects nothing when the browser refuses', async () => {
    const { popup, asked } = mountPopup({}, site);
    popup.requestSitePermission = () => Promise.resolve(false);
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="this-site"]')).not.toBeNull();
    });
    findAll<HTMLButtonElement>(popup, 'button')
      .find((b) => b.textContent.trim() === 'Connect this site')!
      .click();
    await vi.waitFor(() => {
      expect(find(popup, '[role="alert"]')?.textContent).toContain('did not allow');
    });
    expect(asked.map((each) => each.type)).not.toContain('connect-site');
  });

  it('names a partner’s build as it was installed, in every sentence about the site and the refusal', async () => {
    const { popup } = mountPopup({}, site);
    popup.brand = 'Riverside FC Fan Votes';
    popup.requestSitePermission = () => Promise.resolve(false);
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="this-site"]')?.textContent).toContain(
        'Vote with Riverside FC Fan Votes on',
      );
    });
    findAll<HTMLButtonElement>(popup, 'button')
      .find((b) => b.textContent.trim() === 'Connect this site')!
      .click();
    await vi.waitFor(() => {
      expect(find(popup, '[role="alert"]')?.textContent).toContain(
        'did not allow Riverside FC Fan Votes on this site',
      );
    });
    const words = (find(popup, '[data-testid="this-site"]')?.textContent ?? '').replace(/\s+/g, ' ');
    expect(words).toContain('confirm it in a Riverside FC Fan Votes window');
    expect(words + (find(popup, '[role="alert"]')?.textContent ?? '')).not.toContain('Fan Polls');
  });

  it('lists connected sites with what each did, and disconnects one', async () => {
    const connected = [
      { origin: 'https://club.example', connectedAt: 1, activity: { reads: 4, proposals: 2, votes: 1 } },
    ];
    const { popup, asked } = mountPopup({
      'user-polls': () => [],
      sites: () => connected,
      'disconnect-site': () => [],
    });
    await vi.waitFor(() => {
      expect(find(popup, 'nav')).not.toBeNull();
    });
    findAll<HTMLButtonElement>(popup, 'nav button')
      .find((b) => b.textContent.trim() === 'Connected sites')!
      .dispatchEvent(new MouseEvent('click'));
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="site-activity"]')?.textContent.replace(/\s+/g, ' ')).toContain(
        '4 reads of your votes · 2 votes proposed · 1 confirmed',
      );
    });
    findAll<HTMLButtonElement>(popup, 'button[aria-label="Disconnect https://club.example"]')[0]!.click();
    await vi.waitFor(() => {
      expect(asked).toContainEqual({ type: 'disconnect-site', payload: { origin: 'https://club.example' } });
    });
  });
});

describe('the popup’s history', () => {
  it('searches the history and pages it with the same search', async () => {
    const page = Array.from({ length: 10 }, (_, n) =>
      pollIn('closed', { id: `${n}c8d2e3f-4051-4b6c-9d7e-8f90a1b2c3d4`, question: `Past ${n}` }),
    );
    const { popup, asked } = mountPopup({ 'user-polls': () => [], 'poll-history': () => page });
    await vi.waitFor(() => {
      expect(find(popup, 'nav')).not.toBeNull();
    });
    findAll<HTMLButtonElement>(popup, 'nav button')
      .find((b) => b.textContent.trim() === 'History')!
      .click();
    await vi.waitFor(() => {
      expect(rows(popup)).toHaveLength(10);
    });
    const search = findAll<HTMLInputElement>(popup, 'input[type="search"]')[0]!;
    search.value = ' derby ';
    search.dispatchEvent(new Event('input'));
    findAll<HTMLButtonElement>(popup, 'button[type="submit"]')[0]!.click();
    await vi.waitFor(() => {
      expect(asked).toContainEqual({
        type: 'poll-history',
        payload: { page: 1, limit: 10, search: 'derby' },
      });
    });
    findAll<HTMLButtonElement>(popup, 'button')
      .find((button) => button.textContent.trim() === 'Next')!
      .click();
    await vi.waitFor(() => {
      expect(find(popup, '[data-testid="history-page"]')?.textContent).toBe('Page 2');
    });
    expect(asked).toContainEqual({ type: 'poll-history', payload: { page: 2, limit: 10, search: 'derby' } });
  });
});
