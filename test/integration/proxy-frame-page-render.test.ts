// The banner's iframe page as the Node proxy sends it: the card drawn into it (a declarative shadow root, Lit SSR) from
// the proxy's cached public read of its poll, every poll string escaped, cached as that read is; undrawn, never a
// 500, when the poll cannot be drawn. Against the sandbox as a real server and the built widget (`dist/widget/`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPollUrl } from '../../src/contracts/current-poll-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { maxDrawnPerAnswer } from '../../src/proxy/drawn-per-answer.ts';
import { canarySecret, canaryTokenPrefix } from '../support/canary.ts';
import { openRiversidePoll } from '../support/open-poll.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
let polls: Poll[];

beforeAll(async () => {
  harness = await startHarness();
  harness.sandbox.sandbox.simulation.setRate(0);
  polls = ((await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
});
afterAll(() => harness.close());

const framePage = (pollId: string, init: RequestInit = {}) =>
  harness.call(`/widget/embed/poll.html?poll=${encodeURIComponent(pollId)}`, { origin: null, ...init });

/** The text of HTML as a browser reads it (the five entities a serializer writes, comments and tags gone). */
function textOf(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(x27|39);/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The card's declarative shadow root in the page, as markup. */
function shadowRootOf(html: string): string | undefined {
  return /<template shadowroot="open" shadowrootmode="open">([\s\S]*?)<\/template>/.exec(html)?.[1];
}

const platformReadsOf = (pollId: string) =>
  harness.upstream.filter((call) => call.method === 'GET' && call.url.pathname.includes(pollId)).length;

/** An open poll no test here has read through the proxy yet (each test its own, so its cache state is its own). */
const usedPolls = new Set<string>();
function freshOpenPoll(): Poll {
  const now = Date.now();
  const poll = polls.find(
    (each) =>
      !usedPolls.has(each.id) &&
      each.status !== 'cancelled' &&
      each.openAt !== undefined &&
      Date.parse(each.openAt) <= now &&
      (each.closeAt === undefined || Date.parse(each.closeAt) > now + 600_000),
  );
  if (!poll) throw new Error('The sandbox has no more open polls.');
  usedPolls.add(poll.id);
  return poll;
}

describe('the banner page drawn by the proxy', () => {
  it('arrives with the poll’s question and answers in the card’s declarative shadow root', async () => {
    const poll = freshOpenPoll();
    const response = await framePage(poll.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    const root = shadowRootOf(html);
    expect(root).toBeDefined();
    const text = textOf(root ?? '');
    expect(text).toContain(poll.question.replace(/\s+/g, ' ').trim());
    for (const answer of poll.answers) expect(text).toContain(answer.answer.replace(/\s+/g, ' ').trim());
    // The hydrating widget, not the element code, is what the page preloads; its own script is unchanged.
    expect(html).toContain('<link rel="modulepreload" href="../fan-polls-hydrate.js" />');
    expect(html).not.toMatch(/modulepreload" href="\.\.\/chunks\//);
    expect(html).toContain('<script type="module" src="./poll.js"></script>');
    // Its own stylesheet inline, so that it is laid out with its styles from the first frame.
    expect(html).not.toContain('href="./poll.css"');
    expect(html).toMatch(/<style>html,\s*body \{/);
    expect(html).toContain(`poll-id="${poll.id}"`);
    expect(html).toContain(`<meta name="fan-polls-proxy" content="${harness.proxy.url}" />`);
    // Safe: its CSP keeps no inline script, allows the card's styles by hash only, and is framed by the allowed pages.
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain(`frame-ancestors 'self' ${pageOrigin}`);
    expect(html).not.toContain(canaryTokenPrefix);
    expect(html).not.toContain(canarySecret);
  });

  it('escapes a hostile poll string wherever it appears', async () => {
    const poll = freshOpenPoll();
    const hostile = '<img src=x onerror=alert(1)>';
    const stored = harness.sandbox.sandbox.state.polls.all().find((each) => each.id === poll.id);
    if (!stored) throw new Error('The sandbox lost the poll.');
    Object.assign(stored, { question: `Who wins? ${hostile}` });
    Object.assign(stored.answers[0] ?? {}, { text: `${hostile} us` });
    const html = await (await framePage(poll.id)).text();
    expect(shadowRootOf(html)).toBeDefined();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(textOf(shadowRootOf(html) ?? '')).toContain(`Who wins? ${hostile}`);
    expect(textOf(shadowRootOf(html) ?? '')).toContain(`${hostile} us`);
    // In the data block beside it, `<` is escaped in the JSON.
    expect(html).toContain('\\u003cimg src=x onerror=alert(1)>');
  });

  it('is cached as the poll read is: no platform read when the read is cached, 304 for its ETag', async () => {
    const poll = freshOpenPoll();
    const read = await harness.call(`/api/polls/${poll.id}`);
    expect(read.status).toBe(200);
    const platformReads = platformReadsOf(poll.id);
    expect(platformReads).toBe(1);

    const page = await framePage(poll.id);
    expect(page.status).toBe(200);
    expect(shadowRootOf(await page.text())).toBeDefined();
    expect(platformReadsOf(poll.id)).toBe(platformReads);
    expect(page.headers.get('cache-control')).toBe(read.headers.get('cache-control'));
    expect(page.headers.get('cdn-cache-control')).toBe(read.headers.get('cdn-cache-control'));
    expect(Number(page.headers.get('age'))).toBeGreaterThanOrEqual(Number(read.headers.get('age')));
    const etag = page.headers.get('etag') ?? '';
    expect(etag).toMatch(/^(W\/)?".+"$/);
    expect(etag).not.toBe(read.headers.get('etag'));

    const again = await framePage(poll.id, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-security-policy')).toBe(page.headers.get('content-security-policy'));
    expect(platformReadsOf(poll.id)).toBe(platformReads);

    // Per poll and per setting: another poll's page, and this one in another theme, are other pages.
    const other = await framePage(freshOpenPoll().id);
    expect(other.headers.get('etag')).not.toBe(etag);
    const dark = await harness.call(`/widget/embed/poll.html?poll=${poll.id}&theme=dark`, { origin: null });
    expect(dark.headers.get('etag')).not.toBe(etag);
    expect(await dark.text()).toContain('theme="dark"');
  });

  it('draws a `current` banner’s page with its club’s current poll, from the cached list: no platform read per fan', async () => {
    const partnerId = openRiversidePoll(polls).partnerId;
    const currentAnswer = await harness.call(currentPollUrl([partnerId]));
    const current = ((await currentAnswer.json()) as { data: Poll | null }).data;
    if (!current) throw new Error('The club has no current poll.');
    const from = harness.upstream.length;
    const currentPage = () =>
      harness.call(`/widget/embed/poll.html?current=${encodeURIComponent(partnerId)}&lang=en`, {
        origin: null,
      });
    const page = await currentPage();
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(textOf(shadowRootOf(html) ?? '')).toContain(current.question.replace(/\s+/g, ' ').trim());
    // Written as the partner's `current` card is, to follow the club's current poll once live; its data block names
    // the poll it was drawn with.
    const tag = /<fan-poll\b[^>]*>/.exec(html)?.[0] ?? '';
    expect(tag).toContain(' current');
    expect(tag).toContain(`partner-ids="${partnerId}"`);
    expect(tag).not.toContain('poll-id=');
    expect(html).toContain(`"id":"${current.id}"`);
    expect(html).toContain('<link rel="modulepreload" href="../fan-polls-hydrate.js" />');
    // A crowd of fans: the same drawing, the same ETag, no platform read beyond the cached list's.
    for (let fan = 0; fan < 5; fan++) {
      const again = await currentPage();
      expect(again.headers.get('etag')).toBe(page.headers.get('etag'));
    }
    expect(harness.upstream.slice(from).filter((call) => call.method === 'GET')).toEqual([]);
  });

  it.each([
    ['partner ids that are not partner ids', 'current=club'],
    ['no partner ids', 'current='],
  ])('goes out undrawn, 200, for a `current` banner with %s', async (_case, query) => {
    const response = await harness.call(`/widget/embed/poll.html?${query}`, { origin: null });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<main id="content" aria-label="Fan poll"></main>');
    expect(html).not.toContain('shadowrootmode');
  });

  it.each([
    ['an unknown poll', '00000000-0000-4000-8000-000000000000'],
    ['an id that is not a poll id', 'p"><script>alert(1)</script>'],
    ['no id', ''],
  ])('goes out undrawn, 200, for %s', async (_case, pollId) => {
    const response = await framePage(pollId);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<main id="content" aria-label="Fan poll"></main>');
    expect(html).not.toContain('shadowrootmode');
    expect(html).not.toContain('<script>alert');
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect(response.headers.get('content-security-policy')).toContain("style-src 'self';");
  });

  it('draws at most a bounded number of settings per poll answer; past it, new settings get the page undrawn', async () => {
    // A closed poll (the open ones are few and the other tests' own): its answer's drawings are this test's alone.
    const poll = polls.find(
      (each) =>
        !usedPolls.has(each.id) &&
        each.status !== 'cancelled' &&
        each.closeAt !== undefined &&
        Date.parse(each.closeAt) < Date.now(),
    );
    if (!poll) throw new Error('The sandbox has no unread poll.');
    usedPolls.add(poll.id);
    const withCampaign = (campaign: string) =>
      harness.call(`/widget/embed/poll.html?poll=${poll.id}&campaign=${campaign}`, { origin: null });
    for (let index = 0; index < maxDrawnPerAnswer; index++) {
      const page = await withCampaign(`c${String(index)}`);
      expect(page.status).toBe(200);
      expect(shadowRootOf(await page.text()), `settings ${String(index)}`).toBeDefined();
    }
    const past = await withCampaign('one-more');
    expect(past.status).toBe(200);
    const html = await past.text();
    expect(shadowRootOf(html)).toBeUndefined();
    expect(html).toContain('<main id="content"');
    // Settings drawn before are still served drawn.
    expect(shadowRootOf(await (await withCampaign('c0')).text())).toBeDefined();
  });

  it('goes out undrawn, 200, when the platform fails', async () => {
    const poll = freshOpenPoll();
    harness.beforeUpstream = () => Promise.reject(new Error('The platform is away.'));
    try {
      const response = await framePage(poll.id);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<main id="content" aria-label="Fan poll"></main>');
      expect(html).toContain('<link rel="modulepreload" href="../chunks/');
    } finally {
      harness.beforeUpstream = undefined;
    }
  });
});

describe('the drawn page on the wire', () => {
  it('goes out gzipped once per drawing to a client that takes gzip, the same page, revalidated weakly', async () => {
    // Any open poll: what is asserted is the bytes, not the cache.
    const poll = openRiversidePoll(polls);
    const plain = await framePage(poll.id, { headers: { 'Accept-Encoding': 'identity' } });
    const html = await plain.text();
    expect(shadowRootOf(html)).toBeDefined();
    const { request } = await import('node:http');
    const { gunzipSync } = await import('node:zlib');
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = `${harness.proxy.url}/widget/embed/poll.html?poll=${encodeURIComponent(poll.id)}`;
      request(url, { headers: { 'Accept-Encoding': 'gzip, br' } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          resolve({ headers: answer.headers, body: Buffer.concat(chunks) });
        });
      })
        .on('error', reject)
        .end();
    });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(raw.headers.vary).toContain('Accept-Encoding');
    expect(gunzipSync(raw.body).toString()).toBe(html);
    expect(raw.body.byteLength).toBeLessThan(Buffer.byteLength(html) / 2);
    const etag = String(raw.headers.etag);
    expect(etag).toMatch(/^W\//);
    const again = await framePage(poll.id, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag } });
    expect(again.status).toBe(304);
  });
});
