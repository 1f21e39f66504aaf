import { describe, expect, it } from 'vitest';
import type { PollFilters } from '../platform/query.ts';
import { fetchPollsFromPlatform } from './platform-source.ts';
import { pollFixture } from './poll-fixture.ts';

const idA = '11111111-1111-4111-8111-111111111111';

describe('fetchPollsFromPlatform', () => {
  it('lists the polls by uuid with a limit covering them all, skipping ids that are not uuids', async () => {
    const asked: PollFilters[] = [];
    const read = fetchPollsFromPlatform({
      listPolls: (filters?: PollFilters) => {
        asked.push(filters ?? {});
        return Promise.resolve([pollFixture({ id: idA })]);
      },
    });
    expect((await read([idA.toUpperCase(), 'nope'])).map((poll) => poll.id)).toEqual([idA]);
    expect(asked).toEqual([{ ids: [idA], limit: 1 }]);
    expect(await read(['nope'])).toEqual([]);
    expect(asked).toHaveLength(1);
  });
});
