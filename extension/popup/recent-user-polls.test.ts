import { describe, expect, it } from 'vitest';
import { pollFixture } from '../../src/polls/poll-fixture.ts';
import { RecentUserPolls } from './recent-user-polls.ts';

const id = '0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3';

describe('RecentUserPolls', () => {
  it('hands a remembered poll out once, whatever the case of its id', () => {
    const recent = new RecentUserPolls(() => 0);
    recent.remember([pollFixture({ id })]);
    expect(recent.take(id.toUpperCase())?.id).toBe(id);
    expect(recent.take(id)).toBeUndefined();
  });

  it('hands out nothing older than three seconds', () => {
    const clock = { now: 0 };
    const recent = new RecentUserPolls(() => clock.now);
    recent.remember([pollFixture({ id })]);
    clock.now = 3001;
    expect(recent.take(id)).toBeUndefined();
  });

  it('forgets a poll (after a vote)', () => {
    const recent = new RecentUserPolls(() => 0);
    recent.remember([pollFixture({ id })]);
    recent.forget(id);
    expect(recent.take(id)).toBeUndefined();
  });
});
