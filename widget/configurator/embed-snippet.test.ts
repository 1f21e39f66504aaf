import { describe, expect, it } from 'vitest';
import { embedSnippet, type EmbedChoice } from './embed-snippet.ts';

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
  it('pins the script tag to the proxy’s version and writes only the options given, tracking in the spec’s order', () => {
    const { html, css } = embedSnippet(choice);
    expect(html).toBe(
      '<script type="module" src="https://polls.club.example/widget/v0.1.0/fan-polls.js" data-proxy="https://polls.club.example"></script>\n' +
        '<fan-poll\n  poll-id="poll-1"\n  theme="dark"\n  referrer="club-site"\n  campaign="spring"\n>\n' +
        '  <a href="/polls">Vote in the fan poll</a> <!-- until the card loads -->\n</fan-poll>\n',
    );
    expect(css).toBe(
      'fan-poll {\n  display: block;\n  --fan-poll-min-height: 440px;\n  min-height: var(--fan-poll-min-height);\n}\n',
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
