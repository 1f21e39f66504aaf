import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platform/errors.ts';
import type { UserPollFilters } from '../../src/platform/query.ts';
import type { Poll } from '../../src/platform/types.ts';
import { backgroundRoutes, type BackgroundDependencies, type FanPlatform } from './handlers.ts';

const popup = { kind: 'extension-page' } as const;
const ids = ['0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3', '1c8d2e3f-4051-4b6c-9d7e-8f90a1b2c3d4'];

/** The routes over a platform that records the filters of each `listUserPolls` (nothing else is reached). */
function routesRecording() {
  const filters: UserPollFilters[] = [];
  const platform = {
    listUserPolls: (given: UserPollFilters = {}) => {
      filters.push(given);
      return Promise.resolve([]);
    },
  } as unknown as FanPlatform;
  const deps = { platform: () => Promise.resolve(platform) } as unknown as BackgroundDependencies;
  return { routes: backgroundRoutes(deps), filters };
}

describe('the user-polls route', () => {
  it('sends userVoted only when set (false lists the same as true on the platform)', async () => {
    const { routes, filters } = routesRecording();
    await routes['user-polls'].handle({ userVoted: false }, popup);
    await routes['user-polls'].handle({ userVoted: true }, popup);
    expect(filters).toEqual([{}, { userVoted: true }]);
  });

  it('reads the popup cards’ ids with a limit that fits them all', async () => {
    const { routes, filters } = routesRecording();
    await routes['user-polls'].handle({ userVoted: false, ids }, popup);
    expect(filters).toEqual([{ ids, limit: 2 }]);
  });
});

describe('a vote from the popup whose answer was lost', () => {
  const pollId = ids[0] ?? '';
  const answerId = ids[1] ?? '';

  /** The routes over a platform whose vote times out; the re-read says whether it counted. */
  function routesLosingTheVote(userVote: boolean) {
    const calls: string[] = [];
    const platform = {
      vote: () => {
        calls.push('vote');
        return Promise.reject(new PlatformError('timeout', 'vote: no answer within the timeout'));
      },
      getUserPoll: () => {
        calls.push('getUserPoll');
        return Promise.resolve({ id: pollId, userVote, answers: [] } as unknown as Poll);
      },
    } as unknown as FanPlatform;
    const deps = { platform: () => Promise.resolve(platform) } as unknown as BackgroundDependencies;
    return { routes: backgroundRoutes(deps), calls };
  }

  it('is settled by re-reading the fan’s poll, never by voting again', async () => {
    const counted = routesLosingTheVote(true);
    await expect(counted.routes.vote.handle({ pollId, answerId }, popup)).resolves.toMatchObject({
      userVote: true,
    });
    expect(counted.calls.filter((call) => call === 'vote')).toHaveLength(1);
  });

  it('stays a failure when the re-read shows no vote', async () => {
    const lost = routesLosingTheVote(false);
    await expect(lost.routes.vote.handle({ pollId, answerId }, popup)).rejects.toMatchObject({
      code: 'unavailable',
    });
    expect(lost.calls).toEqual(['vote', 'getUserPoll']);
  });
});
