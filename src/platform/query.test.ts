import { describe, expect, it } from 'vitest';
import { PlatformError } from './errors.ts';
import { encodePollFilters, parsePollFilters, queryString, type UserPollFilters } from './query.ts';

const a = '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61';
const b = '7d9e1f20-3a4b-4c5d-8e6f-7a8b9c0d1e22';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof PlatformError ? error.code : 'other';
  }
}

describe('encodePollFilters', () => {
  it('encodes arrays and ranges as the platform expects, in canonical order', () => {
    const query = queryString(
      encodePollFilters({
        partnerIds: [b, a],
        disclosedAt: { from: '2022-03-29T12:30:33', to: '2022-04-01T00:00:00+00:00' },
        quorumReached: true,
        limit: 10,
      }),
    );
    expect(query).toBe(
      `?disclosedAt[from]=2022-03-29T12%3A30%3A33&disclosedAt[to]=2022-04-01T00%3A00%3A00%2B00%3A00` +
        `&limit=10&partnerIds[]=${a}&partnerIds[]=${b}&quorumReached=true`,
    );
  });

  it('makes equal filters equal keys whatever their order, and drops duplicate ids', () => {
    const one = encodePollFilters({ ids: [a, b, a], bound: false, search: 'goal' }).toString();
    const two = encodePollFilters({ search: 'goal', bound: false, ids: [b.toUpperCase(), a] }).toString();
    expect(one).toBe(two);
    expect(one.match(/ids/g)).toHaveLength(2);
  });

  it('is empty without filters', () => {
    expect(queryString(encodePollFilters({}))).toBe('');
  });

  it.each<[string, UserPollFilters]>([
    ['a non-uuid id', { ids: ['42'] }],
    ['a non-uuid partner', { partnerIds: [a, 'x'] }],
    ['a date that is no date', { openAt: { from: 'yesterday' } }],
    ['an impossible date', { openAt: { to: '2022-13-45T99:00:00' } }],
    ['a zero limit', { limit: 0 }],
    ['a fractional limit', { limit: 1.5 }],
    ['a negative page', { page: -1 }],
    ['a direction that is not one', { direction: 'up' as 'asc' }],
    ['a boolean that is a string', { bound: 'true' as unknown as boolean }],
    ['a huge search', { search: 'x'.repeat(500) }],
  ])('refuses %s with invalid_input', (_name, filters) => {
    expect(codeOf(() => encodePollFilters(filters))).toBe('invalid_input');
  });

  it('limits each route to its parameters', () => {
    expect(codeOf(() => encodePollFilters({ userVoted: true }, 'polls'))).toBe('invalid_input');
    expect(codeOf(() => encodePollFilters({ ids: [a] }, 'history'))).toBe('invalid_input');
    expect(encodePollFilters({ userVoted: false }, 'userPolls').get('userVoted')).toBe('false');
    expect(encodePollFilters({ page: 2, direction: 'asc', cursor: 'abc' }, 'history').toString()).toBe(
      'cursor=abc&direction=asc&page=2',
    );
  });
});

describe('parsePollFilters', () => {
  it('reads what encodePollFilters writes (round trip)', () => {
    const filters: UserPollFilters = {
      ids: [a, b],
      partnerIds: [a],
      closeAt: { from: '2022-03-29T12:30:33Z' },
      publicationDate: { to: '2022-03-29T12:30:33' },
      bound: true,
      page: 3,
      limit: 25,
      orderBy: 'openAt',
      direction: 'desc',
      search: 'player of the match',
    };
    const encoded = encodePollFilters(filters, 'polls');
    expect(parsePollFilters(encoded, 'polls')).toEqual(filters);
    expect(encodePollFilters(parsePollFilters(encoded, 'polls'), 'polls').toString()).toBe(
      encoded.toString(),
    );
  });

  it('reads bracket keys whether or not they are percent-encoded', () => {
    const parsed = parsePollFilters(
      new URLSearchParams(`ids%5B%5D=${a}&ids[]=${b}&openAt%5Bfrom%5D=2022-03-29T12:30:33`),
    );
    expect(parsed).toEqual({ ids: [a, b], openAt: { from: '2022-03-29T12:30:33' } });
  });

  it.each([
    ['an unknown parameter', 'colour=red'],
    ['ids without brackets', `ids=${a}`],
    ['a repeated scalar', 'page=1&page=2'],
    ['a limit that is not a number', 'limit=ten'],
    ['a boolean that is not one', 'bound=yes'],
    ['a bad range bound', 'openAt[since]=2022-03-29T12:30:33'],
    ['userVoted on the public list', 'userVoted=true'],
    ['an array key used as a range', 'ids[from]=2022-03-29T12:30:33'],
  ])('refuses %s', (_name, query) => {
    expect(codeOf(() => parsePollFilters(new URLSearchParams(query), 'polls'))).toBe('invalid_input');
  });

  it('takes userVoted on the user list only', () => {
    expect(parsePollFilters(new URLSearchParams('userVoted=true'), 'userPolls')).toEqual({ userVoted: true });
  });
});
