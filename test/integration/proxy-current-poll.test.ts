// Which poll is a club's current one, as the proxy answers it from its cached list of the club's polls: on the
// sandbox's seeded Northgate polls, moved through time by the sandbox's clock (which the proxy's clock follows),
// the `current` card the proxy draws with it, and what a crowd of cards costs the platform: a crowd of `current`
// cards, drawn or not, no more reads than a crowd of cards naming the same poll by id, each card asking what the
// widget asks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPollUrl } from '../../src/contracts/current-poll-contract.ts';
import { drawnCardPath } from '../../src/contracts/drawn-card-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { proxyPollsPath } from '../../src/polls/proxy-polls-path.ts';
import { renderFrameCardWithLitSsr } from '../../src/proxy/frame-card-lit-ssr.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';
import { serverPollAttribute } from '../../widget/ssr/server-poll-data.ts';
import { startHarness, type Harness } from './proxy-harness.ts';

const hour = 3_600_000;
const day = 24 * hour;
/** The proxy's freshness window: a round of reads per window. */
const freshSeconds = 5;

/** The sandbox's clock, which the proxy's follows once the harness runs. */
function clockOf(harness: Harness) {
  return harness.sandbox.sandbox.clock;
}

async function startFollowingClock(): Promise<Harness> {
  // The proxy asks its clock while it starts, before the sandbox's is known.
  const follow: { clock?: { now(): number } } = {};
  const harness = await startHarness(
    { pollCacheSeconds: freshSeconds },
    { now: () => (follow.clock ?? Date).now(), renderFrameCard: renderFrameCardWithLitSsr },
  );
  follow.clock = clockOf(harness);
  harness.sandbox.sandbox.simulation.setRate(0);
  clockOf(harness).freeze();
  return harness;
}

async function northgatePolls(harness: Harness): Promise<Poll[]> {
  const answer = await harness.call('/api/polls?limit=50');
  const polls = ((await answer.json()) as { data: Poll[] }).data;
  return polls.filter((poll) => poll.partnerName.startsWith('Northgate'));
}

async function current(harness: Harness, partnerId: string): Promise<Poll | null> {
  const answer = await harness.call(currentPollUrl([partnerId]));
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: Poll | null }).data;
}

/** The poll id a drawn card's data block carries (the poll the proxy drew it with). */
function drawnPollId(markup: string): string | undefined {
  const block = new RegExp(`<script type="application/json" ${serverPollAttribute}>(.*?)</script>`).exec(
    markup,
  );
  return block ? (JSON.parse(block[1]!) as Poll).id : undefined;
}

/** The drawn `current` card of `partnerIds` (as the card writes them) in English. */
function drawnCurrentCard(harness: Harness, partnerIds: string): Promise<Response> {
  return harness.call(drawnCardPath(null, { partnerIds, lang: 'en' }));
}

/** Platform reads of polls (lists and single polls) the proxy sent since `from`. */
function pollReads(harness: Harness, from: number): string[] {
  return harness.upstream
    .slice(from)
    .filter((call) => call.method === 'GET' && call.url.pathname.startsWith('/polls/'))
    .map((call) => `${call.url.pathname}${call.url.search}`);
}

describe('the current poll of a club', () => {
  let harness: Harness;
  let seededAt: number;
  const ids = {
    walkout: seededPollId('northgate-walkout-song'),
    cafe: seededPollId('northgate-cafe-name'),
    stadium: seededPollId('northgate-stadium-naming'),
  };
  let partnerId: string;

  beforeAll(async () => {
    harness = await startFollowingClock();
    seededAt = clockOf(harness).now();
    const polls = (await (await harness.call('/api/polls?limit=50')).json()) as { data: Poll[] };
    partnerId = polls.data.find((poll) => poll.id === ids.walkout)!.partnerId;
  });

  afterAll(() => harness.close());

  it('is the open poll closing soonest, else the next to open, else the last one ended within the age', async () => {
    // Northgate's walk-out song is open (it closes in three days); its café's name opens in four.
    expect((await current(harness, partnerId))?.id).toBe(ids.walkout);
    // The song's poll has closed: the café's opens next (before the stadium's, published meanwhile).
    clockOf(harness).set(seededAt + 73 * hour);
    expect((await current(harness, partnerId))?.id).toBe(ids.cafe);
    // Both are open: the café's closes first.
    clockOf(harness).set(seededAt + 6 * day);
    expect((await current(harness, partnerId))?.id).toBe(ids.cafe);
    // The café's has closed, the stadium's is open.
    clockOf(harness).set(seededAt + 11 * day + hour);
    expect((await current(harness, partnerId))?.id).toBe(ids.stadium);
    // Everything has ended: the last one disclosed stays current for the configured age (seven days), then none is.
    clockOf(harness).set(seededAt + 14 * day);
    expect((await current(harness, partnerId))?.id).toBe(ids.stadium);
    clockOf(harness).set(seededAt + 21 * day);
    expect(await current(harness, partnerId)).toBeNull();
    clockOf(harness).set(seededAt);
  });

  it('is drawn as a `current` card with that poll, as a card of its poll id is, and not drawn when none is', async () => {
    const drawn = await drawnCurrentCard(harness, partnerId);
    expect(drawn.status).toBe(200);
    expect(drawn.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    const markup = await drawn.text();
    expect(drawnPollId(markup)).toBe(ids.walkout);
    expect(markup).toContain('shadowrootmode="open"');
    // The same drawing as the card that names the poll, answered as it is (its ETag the markup's).
    const byId = await harness.call(drawnCardPath(ids.walkout, { lang: 'en' }));
    expect(await byId.text()).toBe(markup);
    expect(drawn.headers.get('ETag')).toBe(byId.headers.get('ETag'));
    // Partner ids as a page writes them (spaces, upper case, repeats) name the same clubs.
    const written = `${partnerId.toUpperCase()}  ${partnerId}`;
    expect(drawnPollId(await (await drawnCurrentCard(harness, written)).text())).toBe(ids.walkout);
    // Three days on: the café's poll is the one to open next, and the card is drawn with it.
    clockOf(harness).set(seededAt + 73 * hour);
    expect(drawnPollId(await (await drawnCurrentCard(harness, partnerId)).text())).toBe(ids.cafe);
    // No poll is current: nothing to draw, and the page's card reads as any card does.
    clockOf(harness).set(seededAt + 21 * day);
    const none = await drawnCurrentCard(harness, partnerId);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('card_not_drawn');
    clockOf(harness).set(seededAt);
    for (const partners of ['', 'harbour']) {
      const refused = await drawnCurrentCard(harness, partners);
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_filter');
    }
  });

  it('refuses a question that names no partner, or something else than a uuid', async () => {
    for (const query of ['', '?partnerIds[]=harbour', `?partnerIds[]=${partnerId}&partnerIds[]=x`]) {
      const answer = await harness.call(`/api/polls/current${query}`);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('invalid_filter');
    }
  });
});

describe('what a crowd of cards costs the platform', () => {
  const fans = 40;
  const rounds = 3;

  /**
   * `fans` cards, each reading as the widget does for `rounds` freshness windows: a `current` card asks which poll is
   * current, then reads that poll as any card does (`proxyPollsPath`); a `poll-id` card reads its poll. A `drawn` card
   * (the recommended snippet, in a language of its own) first fetches its drawing (`drawnCardPath`), then, hydrated,
   * does the same: the `current` one learns its poll from the drawing, and its follower asks which poll is current.
   */
  async function crowd(
    kind: 'current' | 'poll-id',
    drawn = false,
  ): Promise<{ reads: string[]; shown: string[] }> {
    const harness = await startFollowingClock();
    try {
      const [poll] = await northgatePolls(harness);
      const partnerId = poll!.partnerId;
      const expected = (await (await harness.call(currentPollUrl([partnerId]))).json()) as { data: Poll };
      clockOf(harness).advance(freshSeconds * 1000 + 60_000);
      const from = harness.upstream.length;
      const shown: string[] = [];
      for (let round = 0; round < rounds; round += 1) {
        await Promise.all(
          Array.from({ length: fans }, async () => {
            let pollId = expected.data.id;
            if (drawn) {
              const card = await harness.call(
                kind === 'current'
                  ? drawnCardPath(null, { partnerIds: partnerId, lang: 'en' })
                  : drawnCardPath(pollId, { lang: 'en' }),
              );
              expect(card.status).toBe(200);
              pollId = drawnPollId(await card.text())!;
            }
            if (kind === 'current') {
              const answer = (await (await harness.call(currentPollUrl([partnerId]))).json()) as {
                data: Poll;
              };
              pollId = answer.data.id;
            }
            const read = await harness.call(proxyPollsPath([pollId])!);
            expect(read.status).toBe(200);
            shown.push(((await read.json()) as { data: Poll[] }).data[0]!.id);
          }),
        );
        // The next round, past the window and its stale-while-revalidate: every answer held is too old to serve.
        clockOf(harness).advance(freshSeconds * 1000 + 60_000);
      }
      return { reads: pollReads(harness, from), shown };
    } finally {
      await harness.close();
    }
  }

  it('costs no more platform reads with `current` than with a `poll-id`, one a window, none per fan', async () => {
    const byId = await crowd('poll-id');
    const byCurrent = await crowd('current');
    expect(byCurrent.shown).toEqual(byId.shown);
    expect(byId.reads).toHaveLength(rounds);
    expect(byCurrent.reads.length).toBeLessThanOrEqual(byId.reads.length);
    expect(byCurrent.reads).toHaveLength(rounds);
    // The `current` crowd's reads are the club's list, once a window: the card's read of the poll came from it.
    for (const read of byCurrent.reads) expect(read).toMatch(/\/polls\?limit=100&partnerIds\[\]=/);
  });

  it('costs no more platform reads with a drawn `current` card than with a drawn `poll-id` card', async () => {
    const byId = await crowd('poll-id', true);
    const byCurrent = await crowd('current', true);
    console.info(
      `platform reads over ${rounds} windows, ${fans} fans: drawn poll-id ${byId.reads.length}, drawn current ${byCurrent.reads.length}`,
    );
    expect(byCurrent.shown).toEqual(byId.shown);
    expect(byCurrent.reads.length).toBeLessThanOrEqual(byId.reads.length);
    // The drawing, the follower's question and the card's read all come from the club's list, read once a window.
    expect(byCurrent.reads).toHaveLength(rounds);
    for (const read of byCurrent.reads) expect(read).toMatch(/\/polls\?limit=100&partnerIds\[\]=/);
  });
});
