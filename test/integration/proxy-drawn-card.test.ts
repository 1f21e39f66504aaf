// The drawn card: `GET /api/polls/:pollId/card` answers the `<fan-poll>` as HTML (its declarative shadow
// root and the poll's data block), drawn from the proxy's cached public read of the poll, answered as that read is
// (CORS, cache headers, 304), drawn once per poll answer and settings; refused with `card_not_drawn` whenever it
// cannot be drawn, so that the page's script reads the poll instead. Against the sandbox and the proxy as real servers.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnCardPath, drawnCardPattern } from '../../src/contracts/drawn-card-contract.ts';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { maxDrawnPerAnswer } from '../../src/proxy/drawn-per-answer.ts';
import { renderFrameCardWithLitSsr } from '../../src/proxy/frame-card-lit-ssr.ts';
import type { CardRenderer } from '../../src/proxy/drawn-per-answer.ts';
import { serverPollAttribute } from '../../widget/ssr/server-poll-data.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

/** Every render the proxy asked for, as `<poll id> <lang>`; `lang` values starting `xx-` make it fail on purpose. */
const renders: string[] = [];
const countingRenderer: CardRenderer = async (poll, options) => {
  renders.push(`${options.pollId ?? ''} ${options.lang ?? ''}`);
  if (options.lang === 'xx-throws') throw new TypeError('The render failed.');
  // A poll the card cannot show is drawn without its data block.
  if (options.lang === 'xx-no-poll') return '<fan-poll></fan-poll>';
  return renderFrameCardWithLitSsr(poll, options);
};
const rendersOf = (pollId: string, lang = '') =>
  renders.filter((each) => each === `${pollId} ${lang}`).length;

let harness: Harness;
let polls: Poll[];

beforeAll(async () => {
  harness = await startHarness({}, { renderFrameCard: countingRenderer });
  harness.sandbox.sandbox.simulation.setRate(0);
  polls = ((await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
});
afterAll(() => harness.close());

type Call = Parameters<Harness['call']>[1];
const card = (pollId: string, settings: { lang?: string; results?: string } = {}, init: Call = {}) =>
  harness.call(drawnCardPath(pollId, settings), init);

const platformReadsOf = (pollId: string) =>
  harness.upstream.filter((call) => call.method === 'GET' && call.url.pathname.includes(pollId)).length;

/**
 * An open poll (open 10 minutes more), or one that is not open, that no test here has read yet (each test its own, so
 * its cache state is its own).
 */
const usedPolls = new Set<string>();
function unreadPoll(phase: 'open' | 'not open'): Poll {
  const openLongEnough = (poll: Poll) =>
    poll.status === 'open' && (poll.closeAt === undefined || Date.parse(poll.closeAt) > Date.now() + 600_000);
  const poll = polls.find(
    (each) => !usedPolls.has(each.id) && (phase === 'open' ? openLongEnough(each) : each.status !== 'open'),
  );
  if (!poll) throw new Error(`The sandbox has no more ${phase} polls.`);
  usedPolls.add(poll.id);
  return poll;
}

/** The card's answer as it is on the wire (fetch would undo the gzip), for `Accept-Encoding: accept`. */
function rawCard(pollId: string, accept: string): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(drawnCardPath(pollId, {}), harness.proxy.url),
      { headers: { 'Accept-Encoding': accept, Origin: pageOrigin } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          resolve({ headers: incoming.headers, body: Buffer.concat(chunks) });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function expectNotDrawn(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(((await response.json()) as ProxyErrorBody).error).toEqual({
    code: 'card_not_drawn',
    message: 'This card is not drawn here; read the poll instead.',
  });
}

describe('the drawn card', () => {
  it('answers the card as HTML: a declarative shadow root, every poll string escaped, and the poll’s data block', async () => {
    const poll = unreadPoll('not open');
    const stored = harness.sandbox.sandbox.state.polls.all().find((each) => each.id === poll.id);
    if (!stored) throw new Error('The sandbox lost the poll.');
    Object.assign(stored, { question: 'Who wins? <b>&"' });
    const response = await card(poll.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toMatch(/^(<!--[^>]*-->)*<fan-poll\s/);
    expect(html).toContain(`poll-id="${poll.id}"`);
    expect(html).toContain(`proxy="${harness.proxy.url}"`);
    expect(html).toContain('lang="en"');
    expect(html).toContain('<template shadowroot="open" shadowrootmode="open">');
    expect(html).not.toContain('<b>');
    expect(html).toContain(
      '<legend part="question" class="question"><!--lit-part-->Who wins? &lt;b&gt;&amp;&quot;',
    );
    expect(html).toContain(`<script type="application/json" ${serverPollAttribute}>`);
    expect(html).toContain('"question":"Who wins? \\u003cb>&\\""');
    // Fetched by the page's script, not navigated to: no page headers of its own.
    expect(response.headers.get('content-security-policy')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-request-id')).toMatch(/.+/);
    // The access log names it by its pattern, never its path or query.
    expect(harness.logLines.some((line) => line.includes(`"route":"${drawnCardPattern}"`))).toBe(true);
  });

  it('draws the card in its language', async () => {
    const poll = unreadPoll('open');
    const english = await (await card(poll.id)).text();
    expect(english).toContain('Sign in to vote');
    const response = await card(poll.id, { lang: 'fr' });
    expect(response.status).toBe(200);
    const french = await response.text();
    expect(french).toContain('lang="fr"');
    expect(french).toContain('Se connecter pour voter');
    expect(french).not.toContain('Sign in to vote');
    expect(response.headers.get('etag')).not.toBe((await card(poll.id)).headers.get('etag'));
  });

  it('keeps an open poll’s shares for after the vote with results=after-vote', async () => {
    const poll = unreadPoll('open');
    expect(await (await card(poll.id)).text()).toContain('class="percent"');
    const response = await card(poll.id, { results: 'after-vote' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('results="after-vote"');
    expect(html).toContain(`<script type="application/json" ${serverPollAttribute}>`);
    expect(html).not.toContain('class="percent"');
  });

  it('is drawn once per poll answer and settings, cached as the poll read is, with a 304 for its ETag', async () => {
    const poll = unreadPoll('not open');
    const read = await harness.call(`/api/polls/${poll.id}`);
    expect(read.status).toBe(200);
    const [first, concurrent] = await Promise.all([card(poll.id), card(poll.id)]);
    const again = await card(poll.id);
    expect(rendersOf(poll.id)).toBe(1);
    expect(platformReadsOf(poll.id)).toBe(1);
    // Weak: this client takes gzip (the same card, other bytes).
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/".+"$/);
    expect(etag).not.toBe(read.headers.get('etag'));
    for (const answer of [concurrent, again]) {
      expect(answer.headers.get('etag')).toBe(etag);
      expect(await answer.text()).toBe(await first.text());
    }
    expect(first.headers.get('cache-control')).toBe(read.headers.get('cache-control'));
    expect(first.headers.get('cdn-cache-control')).toBe(read.headers.get('cdn-cache-control'));
    expect(Number(first.headers.get('age'))).toBeGreaterThanOrEqual(Number(read.headers.get('age')));

    const revalidated = await card(poll.id, {}, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(rendersOf(poll.id)).toBe(1);
  });

  it('is gzipped once per drawing for a client that takes gzip, and sent as it is to one that does not', async () => {
    const poll = unreadPoll('not open');
    const identity = await card(poll.id, {}, { headers: { 'Accept-Encoding': 'identity' } });
    const markup = await identity.text();
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(Number(identity.headers.get('content-length'))).toBe(new TextEncoder().encode(markup).length);
    const etag = identity.headers.get('etag') ?? '';
    expect(etag).toMatch(/^".+"$/);
    for (const accept of ['gzip', 'br;q=1, gzip;q=0.5', '*']) {
      const raw = await rawCard(poll.id, accept);
      expect(raw.headers['content-encoding'], accept).toBe('gzip');
      expect(gunzipSync(raw.body).toString('utf8'), accept).toBe(markup);
      expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
      expect(raw.headers.etag).toBe(`W/${etag}`);
      expect(raw.headers.vary).toBe('Origin, Accept-Encoding');
    }
    // Four times smaller on the wire, which is what a phone on a slow network waits for.
    expect((await rawCard(poll.id, 'gzip')).body.length).toBeLessThan(markup.length / 3);
    for (const accept of ['gzip;q=0', 'br', 'gzip;q=0, *'])
      expect((await rawCard(poll.id, accept)).headers['content-encoding'], accept).toBeUndefined();
    expect(rendersOf(poll.id)).toBe(1);
  });

  it('names an allowed page’s origin for CORS, without credentials, and no other origin', async () => {
    const poll = unreadPoll('not open');
    const allowed = await card(poll.id);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    expect(allowed.headers.get('access-control-expose-headers')).toBe('Age, ETag, Retry-After');
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('vary')).toBe('Origin, Accept-Encoding');
    const foreign = await card(poll.id, {}, { origin: 'https://elsewhere.example' });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('vary')).toBe('Origin, Accept-Encoding');
    // The refusal carries CORS too, so that the page's script can read it and fall back.
    const refused = await card('00000000-0000-4000-8000-000000000000');
    expect(refused.headers.get('access-control-allow-origin')).toBe(pageOrigin);
  });

  it('is not taken by Node’s cached poll read: HTML, even when the poll’s JSON read is cached', async () => {
    const poll = unreadPoll('not open');
    expect((await harness.call(`/api/polls/${poll.id}`)).headers.get('content-type')).toMatch(
      /^application\/json/,
    );
    const response = await harness.call(`/api/polls/${poll.id}/card`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('shadowrootmode="open"');
  });

  it('draws at most a bounded number of settings per poll answer; past it, new settings are refused', async () => {
    const poll = unreadPoll('not open');
    const lang = (index: number) => `en-var${String(index).padStart(2, '0')}`;
    for (let index = 0; index < maxDrawnPerAnswer; index++) {
      expect((await card(poll.id, { lang: lang(index) })).status, lang(index)).toBe(200);
    }
    await expectNotDrawn(await card(poll.id, { lang: lang(maxDrawnPerAnswer) }));
    expect(rendersOf(poll.id, lang(maxDrawnPerAnswer))).toBe(0);
    // Settings drawn before are still served.
    expect((await card(poll.id, { lang: lang(0) })).status).toBe(200);
  });

  it.each([
    ['an unknown poll', () => '00000000-0000-4000-8000-000000000000', {}],
    ['a render without the poll', () => unreadPoll('not open').id, { lang: 'xx-no-poll' }],
  ])('is refused with card_not_drawn for %s', async (_case, pollId, settings) => {
    await expectNotDrawn(await card(pollId(), settings));
  });

  it('is refused with card_not_drawn when the render fails, once per poll answer, and says why in the log', async () => {
    const poll = unreadPoll('not open');
    await expectNotDrawn(await card(poll.id, { lang: 'xx-throws' }));
    await expectNotDrawn(await card(poll.id, { lang: 'xx-throws' }));
    expect(rendersOf(poll.id, 'xx-throws')).toBe(1);
    const warning = harness.logLines.find((line) => line.includes('"event":"card_undrawn"'));
    expect(warning).toContain('"error":"TypeError"');
  });

  it('is refused with card_not_drawn when the platform fails', async () => {
    const poll = unreadPoll('open');
    harness.beforeUpstream = () => Promise.reject(new Error('The platform is away.'));
    try {
      await expectNotDrawn(await card(poll.id));
    } finally {
      harness.beforeUpstream = undefined;
    }
  });

  it('answers the group’s 400 for an id that is not a poll id', async () => {
    const response = await harness.call('/api/polls/not-a-poll/card');
    expect(response.status).toBe(400);
    expect(((await response.json()) as ProxyErrorBody).error.code).toBe('invalid_filter');
  });
});

describe('the drawn card without a renderer', () => {
  let undrawn: Harness;
  beforeAll(async () => {
    undrawn = await startHarness({}, { renderFrameCard: undefined });
  });
  afterAll(() => undrawn.close());

  it('is refused with card_not_drawn, and reads nothing from the platform', async () => {
    const list = (await (await undrawn.call('/api/polls?limit=1')).json()) as { data: Poll[] };
    const pollId = list.data[0]?.id ?? '';
    const readsBefore = undrawn.upstream.length;
    const response = await undrawn.call(drawnCardPath(pollId, {}));
    expect(response.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    await expectNotDrawn(response);
    expect(undrawn.upstream.length).toBe(readsBefore);
  });
});
