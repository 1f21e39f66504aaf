import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/sandbox.ts';
import { apiRequest, applicationToken, fanToken } from '../../src/sandbox/test-kit.ts';
import { clubs } from '../../src/sandbox/data/clubs.ts';
import { seededPollId } from '../../src/sandbox/data/seed-polls.ts';

interface PollJson {
  id: string;
  question: string;
  partnerId: string;
  isBound: boolean;
  isQuorumReached: boolean;
  openAt: string;
  closeAt: string;
  publicationDate: string;
  disclosedAt: string;
  usedTokenCount: number;
  userVote?: boolean;
}

const sandbox = createSandbox();
const appToken = applicationToken(sandbox);
const samToken = fanToken(sandbox, 'sam');

async function list(query: string, path = '/polls/1.0.8/polls', token = appToken): Promise<PollJson[]> {
  const response = await apiRequest(sandbox, `${path}?${query}`, token);
  expect(response.status, query).toBe(200);
  return ((await response.json()) as { data: PollJson[] }).data;
}

async function badRequest(query: string, path = '/polls/1.0.8/polls', token = appToken): Promise<string> {
  const response = await apiRequest(sandbox, `${path}?${query}`, token);
  expect(response.status, query).toBe(400);
  const body = (await response.json()) as { code: string; message: string; description: string };
  expect(body.code).toBe('400');
  expect(body.message).toBe('Bad Request');
  return body.description;
}

const all = await list('limit=100');

describe('sandbox poll list filters', () => {
  it('searches the question case-insensitively', async () => {
    const found = await list('search=SONG');
    expect(found.map((poll) => poll.question)).toEqual(['Which song should play when the team walks out?']);
    expect(await list('search=zzz-nothing')).toEqual([]);
  });

  it('filters by partnerIds[] and ids[], both repeatable', async () => {
    const riverside = await list(`limit=100&partnerIds[]=${clubs.riverside.partnerId}`);
    expect(riverside.length).toBe(all.filter((poll) => poll.partnerId === clubs.riverside.partnerId).length);
    expect(riverside.every((poll) => poll.partnerId === clubs.riverside.partnerId)).toBe(true);
    const two = await list(
      `limit=100&partnerIds[]=${clubs.riverside.partnerId}&partnerIds%5B%5D=${clubs.northgate.partnerId}`,
    );
    expect(new Set(two.map((poll) => poll.partnerId))).toEqual(
      new Set([clubs.riverside.partnerId, clubs.northgate.partnerId]),
    );
    const ids = [seededPollId('riverside-away-kit'), seededPollId('harbour-academy-game')];
    const byId = await list(`ids[]=${ids[0]!}&ids[]=${ids[1]!.toUpperCase()}`);
    expect(byId.map((poll) => poll.id).sort()).toEqual([...ids].sort());
  });

  it('filters by quorumReached and bound', async () => {
    for (const value of [true, false]) {
      const reached = await list(`limit=100&quorumReached=${value}`);
      expect(reached.length).toBe(all.filter((poll) => poll.isQuorumReached === value).length);
      expect(reached.length).toBeGreaterThan(0);
      const bound = await list(`limit=100&bound=${value}`);
      expect(bound.length).toBe(all.filter((poll) => poll.isBound === value).length);
      expect(bound.every((poll) => poll.isBound === value)).toBe(true);
    }
  });

  it.each(['openAt', 'closeAt', 'publicationDate', 'disclosedAt'] as const)(
    'filters %s by an inclusive range, with or without an offset',
    async (field) => {
      const sorted = all.map((poll) => poll[field]).sort();
      const middle = sorted[Math.floor(sorted.length / 2)]!;
      const noOffset = middle.replace('+00:00', '');
      const from = await list(`limit=100&${field}[from]=${noOffset}`);
      expect(from.length).toBe(all.filter((poll) => poll[field] >= middle).length);
      const to = await list(`limit=100&${field}[to]=${encodeURIComponent(middle)}`);
      expect(to.length).toBe(all.filter((poll) => poll[field] <= middle).length);
      // The same instant two hours east: 14:00+02:00 is 12:00 UTC.
      const shifted = new Date(Date.parse(middle) + 2 * 3_600_000).toISOString().slice(0, 19) + '+02:00';
      expect((await list(`limit=100&${field}[to]=${encodeURIComponent(shifted)}`)).length).toBe(to.length);
      // An unencoded `+` arrives as a space: read as the offset it was meant to be.
      expect((await list(`limit=100&${field}[to]=${shifted.replace('+', '%20')}`)).length).toBe(to.length);
      const both = await list(`limit=100&${field}[from]=${noOffset}&${field}[to]=${noOffset}`);
      expect(both.every((poll) => poll[field] === middle)).toBe(true);
      expect(both.length).toBeGreaterThan(0);
    },
  );

  it('pages with page and limit, and with the X-Next-Cursor cursor', async () => {
    const first = await apiRequest(sandbox, '/polls/1.0.8/polls?limit=5', appToken);
    const firstPage = ((await first.json()) as { data: PollJson[] }).data;
    expect(firstPage.map((poll) => poll.id)).toEqual(all.slice(0, 5).map((poll) => poll.id));
    expect((await list('limit=5&page=2')).map((poll) => poll.id)).toEqual(
      all.slice(5, 10).map((poll) => poll.id),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await apiRequest(
        sandbox,
        `/polls/1.0.8/polls?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        appToken,
      );
      seen.push(...((await response.json()) as { data: PollJson[] }).data.map((poll) => poll.id));
      cursor = response.headers.get('X-Next-Cursor');
    } while (cursor);
    expect(seen).toEqual(all.map((poll) => poll.id));
    expect(await list('limit=5&page=99')).toEqual([]);
    expect((await list('')).length).toBe(Math.min(20, all.length));
  });

  it('orders by each orderBy field in both directions, openAt descending by default', async () => {
    const openAt = all.map((poll) => poll.openAt);
    expect(openAt).toEqual([...openAt].sort().reverse());
    for (const field of [
      'openAt',
      'closeAt',
      'publicationDate',
      'disclosedAt',
      'question',
      'usedTokenCount',
    ] as const) {
      const ascending = (await list(`limit=100&orderBy=${field}&direction=asc`)).map((poll) => poll[field]);
      const descending = (await list(`limit=100&orderBy=${field}&direction=DESC`)).map((poll) => poll[field]);
      const compare = (a: string | number, b: string | number): number =>
        typeof a === 'number' ? a - (b as number) : a.localeCompare(b as string);
      expect(ascending).toEqual([...ascending].sort(compare));
      expect(descending).toEqual([...ascending].sort(compare).reverse());
    }
  });

  it('answers every bad value with a 400 that says what was wrong', async () => {
    const cases: [string, RegExp][] = [
      ['bound=yes', /"bound" must be true or false/],
      ['quorumReached=1', /"quorumReached" must be true or false/],
      ['partnerIds[]=club', /"partnerIds\[\]" must hold UUIDs/],
      ['ids[]=42', /"ids\[\]" must hold UUIDs/],
      ['openAt[from]=yesterday', /"openAt\[from\]" must be a date-time/],
      ['closeAt[to]=2022-02-30T00:00:00', /"closeAt\[to\]" must be a date-time/],
      ['page=0', /"page" must be an integer from 1/],
      ['limit=101', /"limit" must be an integer from 1 to 100/],
      ['limit=-1', /"limit"/],
      ['orderBy=votes', /"orderBy" must be one of/],
      ['direction=up', /"direction" must be one of asc, desc/],
      ['cursor=%%%', /"cursor" is not a cursor/],
      ['userVoted=true', /Unknown query parameter "userVoted"/],
      ['partnerIds=5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61', /Unknown query parameter "partnerIds"/],
      ['search=a&search=b', /"search" may be given only once/],
    ];
    for (const [query, description] of cases) expect(await badRequest(query)).toMatch(description);
  });
});

describe('sandbox user poll lists', () => {
  it('lists every poll in user context on /user/polls and takes every filter', async () => {
    const polls = await list('limit=100', '/polls/1.0.8/user/polls', samToken);
    expect(polls.map((poll) => poll.id)).toEqual(all.map((poll) => poll.id));
    const bound = await list('limit=100&bound=true&search=the', '/polls/1.0.8/user/polls', samToken);
    expect(bound.every((poll) => poll.isBound && poll.question.toLowerCase().includes('the'))).toBe(true);
  });

  it('takes userVoted: true and false both list only the polls the fan voted in, as the spec says', async () => {
    const voted = await list('limit=100&userVoted=true', '/polls/1.0.8/user/polls', samToken);
    expect(voted.length).toBe(3);
    expect(voted.every((poll) => poll.userVote === true)).toBe(true);
    const notVoted = await list('limit=100&userVoted=false', '/polls/1.0.8/user/polls', samToken);
    expect(notVoted.map((poll) => poll.id)).toEqual(voted.map((poll) => poll.id));
    expect(await list('userVoted=true', '/polls/1.0.8/user/polls', fanToken(sandbox, 'jo'))).toEqual([]);
  });

  it('lists the fan’s history with its six parameters and refuses every other one', async () => {
    const history = await list('', '/polls/1.0.8/user/polls/history', samToken);
    expect(history.map((poll) => poll.id).sort()).toEqual(
      ['riverside-charity-partner', 'riverside-armband-design', 'northgate-mascot-name']
        .map(seededPollId)
        .sort(),
    );
    const searched = await list(
      'search=MASCOT&page=1&limit=10&orderBy=question&direction=asc',
      '/polls/1.0.8/user/polls/history',
      samToken,
    );
    expect(searched.map((poll) => poll.id)).toEqual([seededPollId('northgate-mascot-name')]);
    const paged = await apiRequest(sandbox, '/polls/1.0.8/user/polls/history?limit=2', samToken);
    const cursor = paged.headers.get('X-Next-Cursor')!;
    expect(await list(`limit=2&cursor=${cursor}`, '/polls/1.0.8/user/polls/history', samToken)).toHaveLength(
      1,
    );
    for (const parameter of [
      'bound=true',
      'quorumReached=true',
      'userVoted=true',
      `ids[]=${seededPollId('riverside-away-kit')}`,
      'openAt[from]=2022-03-29T12:30:33',
    ]) {
      expect(await badRequest(parameter, '/polls/1.0.8/user/polls/history', samToken)).toMatch(
        /Unknown query parameter/,
      );
    }
  });
});
