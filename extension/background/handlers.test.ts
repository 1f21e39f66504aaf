import { describe, expect, it } from 'vitest';
import type { UserPollFilters } from '../../src/platform/query.ts';
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
