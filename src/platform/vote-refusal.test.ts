import { describe, expect, it } from 'vitest';
import { voteRefusalReasons } from '../contracts/proxy-contract.ts';
import { PlatformError } from './errors.ts';
import { voteRefusalMessages, voteRefusalReason } from './vote-refusal.ts';

const refused = (status?: number) =>
  new PlatformError('vote_refused', 'vote: refused', status === undefined ? {} : { status });

describe('voteRefusalReason', () => {
  it('maps each documented refusal status to its reason', () => {
    expect([403, 409, 422, 400, 404].map((status) => voteRefusalReason(refused(status)))).toEqual([
      'not_holder',
      'already_voted',
      'poll_not_open',
      'unknown_answer',
      'unknown_poll',
    ]);
  });

  it('gives no reason for another status, no status, another error code or a non-platform error', () => {
    expect(voteRefusalReason(refused(410))).toBeUndefined();
    expect(voteRefusalReason(refused())).toBeUndefined();
    expect(voteRefusalReason(new PlatformError('forbidden', 'f', { status: 403 }))).toBeUndefined();
    expect(
      voteRefusalReason(Object.assign(new Error('x'), { code: 'vote_refused', status: 403 })),
    ).toBeUndefined();
  });

  it('has a message for every reason of the contract', () => {
    for (const reason of voteRefusalReasons) expect(voteRefusalMessages[reason]).toMatch(/\.$/);
  });
});
