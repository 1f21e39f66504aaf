import { describe, expect, it } from 'vitest';
import { followFanVote, shareFanVote, type FanVote } from './fan-votes.ts';

describe('the page’s fan votes', () => {
  it('tells every follower of the fan’s poll, now and later, and nobody else', () => {
    const heard: Record<string, FanVote[]> = { first: [], second: [], otherPoll: [], otherFan: [] };
    const stopFirst = followFanVote('u1', 'p1', (vote) => heard.first!.push(vote));
    followFanVote('u1', 'p2', (vote) => heard.otherPoll!.push(vote));
    followFanVote('u2', 'p1', (vote) => heard.otherFan!.push(vote));
    shareFanVote('u1', 'p1', { answerId: 'a1' });
    // A card that comes later hears the known vote at once.
    followFanVote('u1', 'p1', (vote) => heard.second!.push(vote));
    // The same vote again says nothing; its status confirmed is news.
    shareFanVote('u1', 'p1', { answerId: 'a1' });
    stopFirst();
    shareFanVote('u1', 'p1', { answerId: 'a1', voteStatus: 'accepted' });
    expect(heard).toEqual({
      first: [{ answerId: 'a1' }],
      second: [{ answerId: 'a1' }, { answerId: 'a1', voteStatus: 'accepted' }],
      otherPoll: [],
      otherFan: [],
    });
  });
});
