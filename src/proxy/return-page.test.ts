import { describe, expect, it } from 'vitest';
import { renderReturnPage } from './return-page.ts';

describe('renderReturnPage', () => {
  const target = (html: string): unknown => {
    const block = /<script type="application\/json" id="sign-in-return">([^<]*)<\/script>/.exec(html)?.[1];
    return (JSON.parse(block!) as { target: unknown }).target;
  };

  it('sends the browser on to exactly the address, which cannot break out of the page', () => {
    const address =
      'https://www.club.example/match?q="></a></script><script>alert(1)</script>#x&fan-polls-handoff=c';
    const page = renderReturnPage(address);
    expect(target(page.html)).toBe(address);
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).toContain('location.replace(');
    expect(/<a href="([^"]*)">/.exec(page.html)?.[1]).toBe(
      'https://www.club.example/match?q=&quot;&gt;&lt;/a&gt;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;#x&amp;fan-polls-handoff=c',
    );
  });

  it('runs only its own nonced script, sends no Referer and is never cached', () => {
    const page = renderReturnPage('https://www.club.example/');
    const nonce = /script-src 'nonce-([\w-]+)'/.exec(page.headers['Content-Security-Policy'] ?? '')?.[1];
    expect(page.html).toContain(`<script nonce="${nonce ?? 'none'}">`);
    expect(page.headers['Content-Security-Policy']).toContain("default-src 'none'");
    expect(page.headers['Referrer-Policy']).toBe('no-referrer');
    expect(page.headers['Cache-Control']).toBe('no-store');
  });
});
