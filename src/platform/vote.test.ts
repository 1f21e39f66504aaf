import { describe, expect, it, vi } from 'vitest';
import { PlatformError } from './errors.ts';
import { parsePoll } from './parse.ts';
import { samplePollJson } from './testing/sample-poll.ts';
import { voteAndConfirm } from './vote.ts';

const pollId = '0f8c6a2e-4b1d-4c3e-9f5a-6b7c8d9e0f11';
const answerId = '1a2b3c4d-0000-4000-8000-000000000001';

function fakeClient(voteError: PlatformError | undefined, userVote: boolean | Error) {
  return {
    vote: vi.fn(() => (voteError ? Promise.reject(voteError) : Promise.resolve())),
    getUserPoll: vi.fn(() =>
      userVote instanceof Error
        ? Promise.reject(userVote)
        : Promise.resolve(parsePoll({ data: samplePollJson({ userVote }) })),
    ),
  };
}

describe('voteAndConfirm', () => {
  it('accepted on a 201, without a re-read', async () => {
    const client = fakeClient(undefined, false);
    expect(await voteAndConfirm(client, pollId, answerId)).toEqual({ status: 'accepted' });
    expect(client.getUserPoll).not.toHaveBeenCalled();
  });

  it('settles a lost answer by re-reading the fan’s poll, voting once', async () => {
    const client = fakeClient(new PlatformError('timeout', 't'), true);
    expect((await voteAndConfirm(client, pollId, answerId)).status).toBe('confirmed');
    expect(client.vote).toHaveBeenCalledTimes(1);
  });

  it('throws the original error when the re-read shows no vote or fails', async () => {
    const lost = new PlatformError('network', 'n');
    await expect(voteAndConfirm(fakeClient(lost, false), pollId, answerId)).rejects.toBe(lost);
    await expect(voteAndConfirm(fakeClient(lost, new Error('x')), pollId, answerId)).rejects.toBe(lost);
  });

  it('does not re-read after a clear refusal', async () => {
    const refused = new PlatformError('vote_refused', 'r');
    const client = fakeClient(refused, true);
    await expect(voteAndConfirm(client, pollId, answerId)).rejects.toBe(refused);
    expect(client.getUserPoll).not.toHaveBeenCalled();
  });
});
