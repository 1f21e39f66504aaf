import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineElements } from '../define-elements.ts';
import { settle } from '../test-support/settle.ts';
import { fakeChannel, fakeStore, pollIn } from '../test-support/card-fixtures.ts';
import { WidgetError } from '../voting/widget-error.ts';
import type { FanPollNextEvent } from '../events/fan-poll-next-event.ts';
import type { FanPoll } from './fan-poll.ts';
import { cardDetails } from './details-part.ts';

await defineElements();
await cardDetails.load();

const links = {
  'next-href': 'https://www.club.example/match-report?id=7',
  'next-label': 'Read the match report',
  'get-tokens-href': 'https://tokens.example/club',
  'verify-href': 'https://explorer.example/address/{address}',
};
const tracking = { referrer: 'club-site', campaign: 'spring' };

async function mount(
  poll: ReturnType<typeof pollIn>,
  options: { channel?: ReturnType<typeof fakeChannel>['channel']; attributes?: Record<string, string> } = {},
): Promise<FanPoll> {
  const card = document.createElement('fan-poll');
  for (const [name, value] of Object.entries({
    'poll-id': 'poll-1',
    eager: '',
    ...tracking,
    ...links,
    ...options.attributes,
  }))
    card.setAttribute(name, value);
  card.store = fakeStore({ status: 'ready', poll, fetchedAt: Date.now() });
  card.channel = options.channel ?? fakeChannel().channel;
  document.body.append(card);
  await settle(card);
  return card;
}

const anchors = (card: FanPoll) =>
  [...card.shadowRoot!.querySelectorAll<HTMLAnchorElement>('[part="next"] a')].map((a) => ({
    text: a.textContent.trim(),
    href: a.getAttribute('href'),
  }));

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('the partner’s links on a card', () => {
  it('shows a voter whose vote is accepted the next step, with the tracking parameters', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a1', voteStatus: 'accepted' }] },
    });
    const card = await mount(pollIn('open'), { channel });
    const [next, ...others] = anchors(card);
    expect(others).toEqual([]);
    expect(next?.text).toBe('Read the match report');
    const url = new URL(next!.href!);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.club.example/match-report');
    expect(Object.fromEntries(url.searchParams)).toEqual({ id: '7', ...tracking });
  });

  it('shows no link to a fan before the vote, nor while it is pending', async () => {
    expect(anchors(await mount(pollIn('open')))).toEqual([]);
    const { channel } = fakeChannel({
      signedIn: true,
      fanView: { userVote: true, answers: [{ id: 'a1', voteStatus: 'pending' }] },
    });
    expect(anchors(await mount(pollIn('open'), { channel }))).toEqual([]);
  });

  it('shows a fan without the club’s tokens where to get them', async () => {
    const { channel } = fakeChannel({
      signedIn: true,
      vote: () => Promise.reject(new WidgetError('not-holder', 'refused')),
    });
    const card = await mount(pollIn('open'), { channel });
    card.shadowRoot!.querySelector('input')!.click();
    await settle(card);
    card.shadowRoot!.querySelector('button')!.click();
    await settle(card);
    expect(anchors(card)).toEqual([
      { text: 'Get Riverside FC fan tokens', href: 'https://tokens.example/club' },
    ]);
  });

  it('links a closed or disclosed poll’s record through verify-href, and fires fan-poll-next when followed', async () => {
    const card = await mount(pollIn('disclosed', { blockchainAddress: '0xAbC/1?x' }));
    expect(anchors(card).map((link) => link.text)).toEqual(['Read the match report', 'Check this result']);
    expect(anchors(card)[1]?.href).toBe('https://explorer.example/address/0xAbC%2F1%3Fx');
    const heard: FanPollNextEvent[] = [];
    document.addEventListener('fan-poll-next', (event) => heard.push(event));
    const verify = card.shadowRoot!.querySelectorAll<HTMLAnchorElement>('[part="next"] a')[1]!;
    verify.addEventListener('click', (event) => {
      event.preventDefault();
    });
    verify.click();
    expect(heard.map((event) => event.detail)).toEqual([
      {
        pollId: 'poll-1',
        tracking,
        link: 'verify',
        href: 'https://explorer.example/address/0xAbC%2F1%3Fx',
      },
    ]);
    expect(verify.getAttribute('rel')).toBe('noopener noreferrer');
    // A closed poll without an address has nothing to check.
    expect(anchors(await mount(pollIn('closed'))).map((link) => link.text)).toEqual([
      'Read the match report',
    ]);
  });

  it('never renders a javascript: or data: link, and says why in the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const card = await mount(pollIn('disclosed', { blockchainAddress: '0x1' }), {
      attributes: {
        'next-href': 'javascript:alert(document.cookie)',
        'verify-href': 'data:text/html,{address}',
      },
    });
    expect(anchors(card)).toEqual([]);
    expect(card.shadowRoot!.innerHTML).not.toMatch(/javascript:|data:/);
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining('next-href is ignored'),
      expect.stringContaining('verify-href is ignored'),
    ]);
  });
});
