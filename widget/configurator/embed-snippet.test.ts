import { describe, expect, it } from 'vitest';
import { embedSnippet, preloadLines, type EmbedChoice } from './embed-snippet.ts';

const choice: EmbedChoice = {
  embed: 'card',
  proxyUrl: 'https://polls.club.example',
  version: '0.1.0',
  pollId: 'poll-1',
  partnerId: 'club-1',
  theme: 'dark',
  results: 'always',
  lang: '',
  minHeight: 440,
  maxWidth: 0,
  tracking: { referrer: 'club-site', campaign: ' spring ', param2: '' },
};

describe('embedSnippet', () => {
  it('writes a card that follows its club’s current poll, drawn by the proxy in its language, and the partner’s links', () => {
    const { html } = embedSnippet({
      ...choice,
      pollId: '3f2b8a1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      current: true,
      lang: 'fr',
      links: {
        'next-href': ' https://www.club.example/report ',
        'verify-href': 'https://explorer.example/address/{address}',
        'next-label': '',
      },
    });
    // The drawn current card's URL (`drawnCardPath`), the one `widget/delivery/drawn-cards.ts` asks for.
    expect(html).toBe(
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls.js">\n' +
        '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls-hydrate.js">\n' +
        '<link rel="preload" as="fetch" crossorigin="anonymous" href="https://polls.club.example/api/polls/current/card?partnerIds%5B%5D=club-1&amp;lang=fr">\n' +
        '<script type="module" src="https://polls.club.example/widget/v0.1.0/fan-polls.js" data-proxy="https://polls.club.example"></script>\n' +
        '<fan-poll\n  current\n  partner-ids="club-1"\n  theme="dark"\n  lang="fr"\n' +
        '  next-href="https://www.club.example/report"\n  verify-href="https://explorer.example/address/{address}"\n' +
        '  referrer="club-site"\n  campaign="spring"\n  eager\n>\n' +
        '  <a href="/polls">Vote in the fan poll</a> <!-- until the card loads -->\n</fan-poll>\n',
    );
  });

  it('writes a current card in the page’s language with no poll to preload: the entry and its element code', () => {
    const { html } = embedSnippet({ ...choice, current: true, elementCode: ['chunks/page-widget-a1.js'] });
    expect(html.split('\n').slice(0, 3)).toEqual([
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls.js">',
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/chunks/page-widget-a1.js">',
      '<script type="module" src="https://polls.club.example/widget/v0.1.0/fan-polls.js" data-proxy="https://polls.club.example"></script>',
    ]);
  });

  it('writes a banner that follows its club’s current poll; a list takes neither', () => {
    expect(embedSnippet({ ...choice, embed: 'banner', current: true }).html).toContain(
      '<fan-poll-frame\n  current\n  partner-ids="club-1"\n',
    );
    const list = embedSnippet({
      ...choice,
      embed: 'list',
      current: true,
      links: { 'next-href': 'https://a.example/' },
    });
    expect(list.html).not.toMatch(/current|next-href/);
  });

  it('pins the script tag to the proxy’s version and writes only the options given, tracking in the spec’s order', () => {
    const { html, css } = embedSnippet(choice);
    expect(html).toBe(
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls.js">\n' +
        '<script type="module" src="https://polls.club.example/widget/v0.1.0/fan-polls.js" data-proxy="https://polls.club.example"></script>\n' +
        '<fan-poll\n  poll-id="poll-1"\n  theme="dark"\n  referrer="club-site"\n  campaign="spring"\n  eager\n>\n' +
        '  <a href="/polls">Vote in the fan poll</a> <!-- until the card loads -->\n</fan-poll>\n',
    );
    expect(css).toBe(
      'fan-poll {\n  display: block;\n  --fan-poll-min-height: 440px;\n  min-height: var(--fan-poll-min-height);\n}\n',
    );
  });

  it('preloads a card in a language of its own as the proxy draws it, with the entry and the hydrating bundle', () => {
    const id = '3f2b8a1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    const { html } = embedSnippet({
      ...choice,
      pollId: id,
      lang: 'fr',
      results: 'after-vote',
      elementCode: ['chunks/page-widget-AbC12345.js'],
    });
    expect(html.split('\n').slice(0, 4)).toEqual([
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls.js">',
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls-hydrate.js">',
      // `drawnCardPath`'s URL, the one `widget/delivery/drawn-cards.ts` asks for; `&` escaped in the attribute.
      `<link rel="preload" as="fetch" crossorigin="anonymous" href="https://polls.club.example/api/polls/${id}/card?lang=fr&amp;results=after-vote">`,
      '<script type="module" src="https://polls.club.example/widget/v0.1.0/fan-polls.js" data-proxy="https://polls.club.example"></script>',
    ]);
    expect(html).toContain('  results="after-vote"\n  lang="fr"\n');
  });

  it('preloads a card’s element code and its read exactly as the entry then asks for them', () => {
    const id = '3f2b8a1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    const { html } = embedSnippet({ ...choice, pollId: id, elementCode: ['chunks/page-widget-AbC12345.js'] });
    expect(html.split('\n').slice(0, 3)).toEqual([
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/fan-polls.js">',
      '<link rel="modulepreload" href="https://polls.club.example/widget/v0.1.0/chunks/page-widget-AbC12345.js">',
      // The URL of `prefetchPolls` (ids sorted, `limit`), `&` escaped in the attribute.
      `<link rel="preload" as="fetch" crossorigin="anonymous" href="https://polls.club.example/api/polls?ids[]=${id}&amp;limit=1">`,
    ]);
    expect(
      preloadLines('https://p.example', '1.0.0', [
        'b0000000-0000-4000-8000-000000000000',
        'a0000000-0000-4000-8000-000000000000',
      ])[1],
    ).toBe(
      '<link rel="preload" as="fetch" crossorigin="anonymous" href="https://p.example/api/polls?ids[]=a0000000-0000-4000-8000-000000000000&amp;ids[]=b0000000-0000-4000-8000-000000000000&amp;limit=2">',
    );
  });

  it('gives the banner its own loader and the list the club’s polls', () => {
    const banner = embedSnippet({ ...choice, embed: 'banner', lang: 'fr', maxWidth: 600 });
    expect(banner.html).toMatch(
      /^<script type="module" src="https:\/\/polls\.club\.example\/widget\/v0\.1\.0\/fan-polls-frame\.js"><\/script>\n<fan-poll-frame\n/,
    );
    expect(banner.html).toContain('  lang="fr"\n');
    expect(banner.css).toContain('max-width: 600px;');
    const list = embedSnippet({ ...choice, embed: 'list' });
    expect(list.html).toContain('<fan-poll-list\n  partner-ids="club-1"\n  limit="6"\n');
    expect(list.html).not.toContain('poll-id');
  });

  it('writes `results` only when it is not the default, on every embed', () => {
    expect(embedSnippet(choice).html).not.toContain('results=');
    for (const embed of ['card', 'list', 'banner'] as const)
      expect(embedSnippet({ ...choice, embed, results: 'after-vote' }).html).toContain(
        '  theme="dark"\n  results="after-vote"\n',
      );
  });

  it('escapes what the partner typed, so a value cannot end the attribute or open a tag', () => {
    const { html } = embedSnippet({ ...choice, tracking: { campaign: '"><script>alert(1)</script>' } });
    expect(html).toContain('campaign="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(html.match(/<script/g)).toHaveLength(1);
  });
});

describe('the reserved height per width', () => {
  it('adds a phone rule when the measured narrow height differs, and none when it does not', () => {
    const card = { ...choice, minHeight: 470, narrowMinHeight: 520, maxWidth: 480 };
    expect(embedSnippet(card).css).toBe(
      'fan-poll {\n  display: block;\n  --fan-poll-min-height: 470px;\n  min-height: var(--fan-poll-min-height);\n  max-width: 480px;\n}\n' +
        '@media (max-width: 480px) {\n  fan-poll {\n    --fan-poll-min-height: 520px;\n  }\n}\n',
    );
    expect(embedSnippet({ ...card, narrowMinHeight: 470 }).css).not.toContain('@media');
    expect(embedSnippet({ ...card, embed: 'list' }).css).toContain('fan-poll-list {\n    min-height: 520px;');
  });
});
