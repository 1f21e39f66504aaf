// A poll's share link: the share page (`/share/polls/:id`: Open Graph and Twitter meta tags, the oEmbed discovery link,
// on to the partner's page from `FAN_POLLS_SHARE_TARGET` or the banner itself), its image (`.png`, 1200 × 630, drawn
// by satori and resvg-wasm from the proxy's cached read, ETag and 304) and oEmbed (`/oembed`). Against the sandbox and
// the proxy as real servers; the images decoded with pngjs.
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareImagePath, sharePagePath, shareImageSize } from '../../src/contracts/share-contract.ts';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { loadProxyConfig } from '../../src/proxy/config.ts';
import { createProxyApp } from '../../src/proxy/app.ts';
import { pollCacheHeaders } from '../../src/proxy/public-routes.ts';
import { shareImageRenderer, shareImageTheme } from '../../src/proxy/share/share-image-drawing.ts';
import { readShareImageAssets } from '../../src/node/share-image-assets.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { startHarness, type Harness } from './proxy-harness.ts';

const shareTarget = 'https://www.club.example/polls/{pollId}';
const unknownPoll = '00000000-0000-4000-8000-000000000000';

let harness: Harness;
let polls: Poll[];

beforeAll(async () => {
  harness = await startHarness({ shareTarget });
  harness.sandbox.sandbox.simulation.setRate(0);
  polls = ((await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
}, 30_000);
afterAll(() => harness.close());

const openPoll = () => polls.find((poll) => poll.status === 'open' && poll.answers.length <= 4)!;
const upcomingPoll = () => polls.find((poll) => Date.parse(poll.openAt ?? '') > Date.now())!;

async function image(pollId: string, init: RequestInit = {}) {
  const answer = await fetch(`${harness.proxy.url}${shareImagePath(pollId)}`, init);
  return { answer, bytes: new Uint8Array(await answer.arrayBuffer()) };
}

/** The PNG's size from its IHDR chunk: big-endian width and height at bytes 16 and 20. */
function headerSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Pixels of exactly `hex` inside rows `from`..`to`. */
function pixelsOf(png: PNG, hex: string, from = 0, to = png.height): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  let count = 0;
  for (let y = from; y < to; y++) {
    for (let x = 0; x < png.width; x++) {
      const at = (y * png.width + x) * 4;
      if (png.data[at] === r && png.data[at + 1] === g && png.data[at + 2] === b) count++;
    }
  }
  return count;
}

/** The `content` of a meta tag (`property` or `name`), as the page's HTML has it (escaped). */
function meta(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];
}

describe('the share image', () => {
  it('is a 1200 × 630 PNG, different for two polls, the same again within the freshness window (ETag, 304)', async () => {
    const open = openPoll();
    const first = await image(open.id);
    expect(first.answer.status).toBe(200);
    expect(first.answer.headers.get('content-type')).toBe('image/png');
    expect([...first.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(headerSize(first.bytes)).toEqual(shareImageSize);
    const decoded = PNG.sync.read(Buffer.from(first.bytes));
    expect({ width: decoded.width, height: decoded.height }).toEqual(shareImageSize);
    writeFileSync(screenshotPath('share-image.png'), first.bytes);

    const cacheHeaders = pollCacheHeaders(harness.proxy.config.pollCacheSeconds);
    expect(first.answer.headers.get('cache-control')).toBe(cacheHeaders['Cache-Control']);
    expect(first.answer.headers.get('cdn-cache-control')).toBe(cacheHeaders['CDN-Cache-Control']);
    const etag = first.answer.headers.get('etag')!;
    const again = await image(open.id);
    expect(again.answer.headers.get('etag')).toBe(etag);
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    const notModified = await image(open.id, { headers: { 'If-None-Match': etag } });
    expect(notModified.answer.status).toBe(304);
    expect(notModified.bytes.byteLength).toBe(0);

    const other = await image(upcomingPoll().id);
    expect(other.answer.status).toBe(200);
    expect(headerSize(other.bytes)).toEqual(shareImageSize);
    expect(other.answer.headers.get('etag')).not.toBe(etag);
    expect(PNG.sync.read(Buffer.from(other.bytes)).data.equals(decoded.data)).toBe(false);
    // The first drawing loads the font and the renderer (about 2 s here); the margin is for a loaded runner.
  }, 30_000);

  it('draws the answers’ bars in the card’s accent colour where the results show, and none before the poll opens', async () => {
    const withResults = PNG.sync.read(Buffer.from((await image(openPoll().id)).bytes));
    const upcoming = PNG.sync.read(Buffer.from((await image(upcomingPoll().id)).bytes));
    // Below the header (the badge, the phase and the top stripe are in the accent too): the bars.
    const bars = { from: 280, to: shareImageSize.height };
    expect(pixelsOf(withResults, shareImageTheme.accent, bars.from, bars.to)).toBeGreaterThan(5000);
    expect(pixelsOf(upcoming, shareImageTheme.accent, bars.from, bars.to)).toBe(0);
    // The stripe on top is the accent in both.
    expect(pixelsOf(upcoming, shareImageTheme.accent, 0, 10)).toBe(shareImageSize.width * 10);
  });

  it('answers 404 for an unknown poll and 400 for a malformed id', async () => {
    const unknown = await harness.call(shareImagePath(unknownPoll));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ProxyErrorBody).error.code).toBe('not_found');
    expect((await harness.call(shareImagePath('not-a-poll'))).status).toBe(400);
  });

  it('answers 404 share_image_not_drawn where no renderer is given', async () => {
    const config = loadProxyConfig({ FAN_POLLS_PRESET: 'sandbox' });
    const { app } = createProxyApp(config, { logSink: () => undefined });
    const answer = await app.request(shareImagePath(unknownPoll));
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as ProxyErrorBody).error.code).toBe('share_image_not_drawn');
  });
});

describe('a crowd asking for one poll’s image at once', () => {
  it('costs one drawing: 200 requests within a freshness window get the same image', async () => {
    let drawings = 0;
    const draw = shareImageRenderer(readShareImageAssets);
    // The proxy's clock stands still, so that the whole crowd falls in one freshness window however slow the runner.
    const standing = Date.now();
    const crowd = await startHarness(
      {},
      {
        now: () => standing,
        renderShareImage: (card) => {
          drawings += 1;
          return draw(card);
        },
      },
    );
    try {
      crowd.sandbox.sandbox.simulation.setRate(0);
      const listed = (await (await crowd.call('/api/polls?limit=50')).json()) as { data: Poll[] };
      const poll = listed.data.find((each) => each.status === 'open')!;
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => fetch(`${crowd.proxy.url}${shareImagePath(poll.id)}`)),
      );
      expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
      expect(new Set(answers.map((answer) => answer.headers.get('etag'))).size).toBe(1);
      await Promise.all(answers.map((answer) => answer.arrayBuffer()));
      expect(drawings).toBe(1);
    } finally {
      await crowd.close();
    }
  }, 60_000);
});

describe('a hostile question', () => {
  it('draws inside the image and is escaped in the meta tags', async () => {
    const poll = polls.find((each) => each.status === 'open' && each.id !== openPoll().id)!;
    const stored = harness.sandbox.sandbox.polls.find(poll.id)!;
    const hostile = `<script>alert(1)</script>"'&\u202Eمرحبا بالعالم שלום 😀🎉 ${'Wwwwwwwwww'.repeat(300)}`;
    Object.assign(stored, { question: hostile });
    Object.assign(stored.answers[0] ?? {}, { text: `<img src=x onerror=alert(1)> ${'Ω'.repeat(400)}` });

    const drawn = await image(poll.id);
    expect(drawn.answer.status).toBe(200);
    const png = PNG.sync.read(Buffer.from(drawn.bytes));
    expect({ width: png.width, height: png.height }).toEqual(shareImageSize);
    writeFileSync(screenshotPath('share-image-hostile.png'), drawn.bytes);
    // Nothing is drawn in the margins: the bottom rows and the right-hand columns below the stripe stay background.
    const white = shareImageTheme.background;
    expect(pixelsOf(png, white, shareImageSize.height - 30, shareImageSize.height)).toBe(
      shareImageSize.width * 30,
    );
    let marginInk = 0;
    for (let y = 20; y < png.height; y++) {
      for (let x = png.width - 40; x < png.width; x++) {
        const at = (y * png.width + x) * 4;
        if (png.data[at] !== 255 || png.data[at + 1] !== 255 || png.data[at + 2] !== 255) marginInk++;
      }
    }
    expect(marginInk).toBe(0);

    const page = await harness.call(sharePagePath(poll.id));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    // No bidirectional override reaches a preview: it could turn the text around.
    expect(html).not.toContain('\u202E');
    const title = meta(html, 'og:title')!;
    expect(title.startsWith('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;')).toBe(true);
    // Cut cleanly: at most 200 characters (once unescaped), the cut marked.
    const unescaped = title
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    expect(Array.from(unescaped).length).toBeLessThanOrEqual(200);
    expect(unescaped.endsWith('…')).toBe(true);
  });
});

describe('the share page', () => {
  it('carries the question, the phase, the leading answer and the absolute image URL in its meta tags', async () => {
    const open = openPoll();
    const answer = await harness.call(sharePagePath(open.id));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await answer.text();
    expect(meta(html, 'og:title')).toBe(open.question);
    expect(meta(html, 'twitter:title')).toBe(open.question);
    const imageUrl = `${harness.proxy.url}${shareImagePath(open.id)}`;
    expect(meta(html, 'og:image')).toBe(imageUrl);
    expect(meta(html, 'twitter:image')).toBe(imageUrl);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'og:description')).toMatch(/Open: vote now · Leading: .+ \(\d+%\)$/);
    const oembed = `${harness.proxy.url}/oembed?url=${encodeURIComponent(`${harness.proxy.url}${sharePagePath(open.id)}`)}&amp;format=json`;
    expect(html).toContain(`<link rel="alternate" type="application/json+oembed" href="${oembed}"`);
    // The image the page names is the one served.
    expect((await fetch(imageUrl)).status).toBe(200);

    const policy = answer.headers.get('content-security-policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toContain('script-src');
    expect(answer.headers.get('cache-control')).toBe(
      pollCacheHeaders(harness.proxy.config.pollCacheSeconds)['Cache-Control'],
    );
    const notModified = await harness.call(sharePagePath(open.id), {
      headers: { 'If-None-Match': answer.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
  });

  it('hides the shares where the link’s results setting does', async () => {
    const html = await (await harness.call(`${sharePagePath(openPoll().id)}?results=after-vote`)).text();
    expect(meta(html, 'og:description')).not.toContain('Leading');
    expect(meta(html, 'og:image')).toBe(
      `${harness.proxy.url}${shareImagePath(openPoll().id)}?results=after-vote`,
    );
  });

  it('sends people on only to the configured target, with the tracking values and campaign=share', async () => {
    const open = openPoll();
    const target = `https://www.club.example/polls/${open.id}`;
    const answer = await harness.call(
      `${sharePagePath(open.id)}?referrer=news&param1=x&url=https%3A%2F%2Fevil.example%2F&redirect=https%3A%2F%2Fevil.example%2F&target=https%3A%2F%2Fevil.example%2F`,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('location')).toBeNull();
    const html = await answer.text();
    const onward = `${target}?referrer=news&amp;campaign=share&amp;param1=x`;
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${onward}" />`);
    expect(html).toContain(`<a href="${onward}">`);
    expect(html).not.toContain('evil.example');

    const withCampaign = await (await harness.call(`${sharePagePath(open.id)}?campaign=derby`)).text();
    expect(withCampaign).toContain(`url=${target}?campaign=derby"`);
    // A value that is not a clean tracking value is dropped, never carried on.
    const unclean = await (await harness.call(`${sharePagePath(open.id)}?referrer=%00bad`)).text();
    expect(unclean).toContain(`url=${target}?campaign=share"`);
  });

  it('answers 404 for an unknown poll', async () => {
    expect((await harness.call(sharePagePath(unknownPoll))).status).toBe(404);
  });
});

describe('without a share target', () => {
  it('shows the banner itself: an iframe of the proxy’s banner page with the tracking values, and no redirect', async () => {
    const plain = await startHarness();
    try {
      const open = openPoll();
      const html = await (await plain.call(`${sharePagePath(open.id)}?referrer=news&campaign=derby`)).text();
      expect(html).not.toContain('http-equiv="refresh"');
      expect(html).toContain(
        `<iframe src="${plain.proxy.url}/widget/embed/poll.html?poll=${open.id}&amp;referrer=news&amp;campaign=derby"`,
      );
    } finally {
      await plain.close();
    }
  });
});

describe('oEmbed', () => {
  const oembed = (url: string, extra = '') =>
    harness.call(`/oembed?url=${encodeURIComponent(url)}&format=json${extra}`, {
      origin: 'https://blog.example',
    });

  it('answers a rich oEmbed 1.0 for a share link, within maxwidth and maxheight, to any origin', async () => {
    const open = openPoll();
    const link = `${harness.proxy.url}${sharePagePath(open.id)}?referrer=blog`;
    const answer = await oembed(link);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('cache-control')).toBe(
      pollCacheHeaders(harness.proxy.config.pollCacheSeconds)['Cache-Control'],
    );
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      version: '1.0',
      type: 'rich',
      title: open.question,
      provider_name: open.partnerName,
      width: 480,
      height: 560,
      thumbnail_url: `${harness.proxy.url}${shareImagePath(open.id)}`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
    });
    expect(body.html).toBe(
      `<iframe src="${harness.proxy.url}/widget/embed/poll.html?poll=${open.id}&amp;referrer=blog" title="${open.question}" width="480" height="560" allow="clipboard-write; web-share" loading="lazy" style="border:0;max-width:100%"></iframe>`,
    );
    const bounded = (await (await oembed(link, '&maxwidth=320&maxheight=400')).json()) as Record<
      string,
      unknown
    >;
    expect([bounded.width, bounded.height]).toEqual([320, 400]);
    expect(bounded.html).toContain('width="320" height="400"');
  });

  it('answers 404 for another host, a link that is not a share link and an unknown poll; 501 for xml', async () => {
    const open = openPoll();
    expect((await oembed(`https://elsewhere.example${sharePagePath(open.id)}`)).status).toBe(404);
    expect((await oembed(`${harness.proxy.url}/api/polls/${open.id}`)).status).toBe(404);
    expect((await oembed(`${harness.proxy.url}${sharePagePath(unknownPoll)}`)).status).toBe(404);
    expect((await oembed('not a url')).status).toBe(404);
    const xml = await harness.call(
      `/oembed?url=${encodeURIComponent(`${harness.proxy.url}${sharePagePath(open.id)}`)}&format=xml`,
    );
    expect(xml.status).toBe(501);
    expect(((await xml.json()) as ProxyErrorBody).error.code).toBe('oembed_format_not_implemented');
  });
});

describe('FAN_POLLS_SHARE_TARGET', () => {
  const withTarget = (preset: string, target: string) => () =>
    loadProxyConfig({ FAN_POLLS_PRESET: preset, FAN_POLLS_SHARE_TARGET: target });

  it('takes an https template with {pollId}, and http on loopback in the sandbox preset only', () => {
    expect(withTarget('sandbox', shareTarget)().shareTarget).toBe(shareTarget);
    expect(withTarget('sandbox', 'http://127.0.0.1:4030/polls/{pollId}')().shareTarget).toBeDefined();
    expect(withTarget('sandbox', 'https://www.club.example/polls')).toThrow(/FAN_POLLS_SHARE_TARGET/);
    expect(withTarget('sandbox', 'http://www.club.example/polls/{pollId}')).toThrow(/FAN_POLLS_SHARE_TARGET/);
    expect(withTarget('sandbox', 'javascript:alert(1)//{pollId}')).toThrow(/FAN_POLLS_SHARE_TARGET/);
    expect(withTarget('sandbox', 'https://www.club.example/polls/{pollId}#x')).toThrow(
      /FAN_POLLS_SHARE_TARGET/,
    );
    const production = {
      FAN_POLLS_PRESET: 'production',
      FAN_POLLS_CLIENT_ID: 'id',
      FAN_POLLS_CLIENT_SECRET: 'secret',
      FAN_POLLS_PARTNER_TAG: 'tag',
      FAN_POLLS_PUBLIC_URL: 'https://polls.club.example',
      FAN_POLLS_ALLOWED_ORIGINS: 'https://www.club.example',
      FAN_POLLS_SESSION_SECRET: 'x'.repeat(32),
      FAN_POLLS_PLATFORM_API_URL: 'https://api.platform.example',
      FAN_POLLS_PLATFORM_AUTH_URL: 'https://auth.platform.example',
    };
    expect(loadProxyConfig({ ...production, FAN_POLLS_SHARE_TARGET: shareTarget }).shareTarget).toBe(
      shareTarget,
    );
    expect(() =>
      loadProxyConfig({ ...production, FAN_POLLS_SHARE_TARGET: 'http://127.0.0.1:4030/polls/{pollId}' }),
    ).toThrow(/FAN_POLLS_SHARE_TARGET/);
  });
});
