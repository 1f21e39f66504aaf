import { describe, expect, it } from 'vitest';
import { voteRefusalReasons } from '../contracts/proxy-contract.ts';
import { errorFromApiResponse } from './api-errors.ts';
import { PlatformError } from './errors.ts';
import { voteRefusalMessages, voteRefusalReason } from './vote-refusal.ts';

/** A vote's refusal as the client builds it from the platform's answer. */
const refusal = (status: number, body?: unknown) =>
  errorFromApiResponse(new Response(body === undefined ? null : JSON.stringify(body), { status }), body, {
    operation: 'vote',
    isVote: true,
    now: 0,
  });

/** The sandbox's refusal bodies (`backendError`: the status as the code, an English description). */
const sandbox = (status: number, description: string) =>
  refusal(status, { code: String(status), message: 'Refused', description });

describe('voteRefusalReason', () => {
  it('reads the sandbox’s refusals by what they say', () => {
    expect(voteRefusalReason(sandbox(409, 'The user has already voted in poll p.'))).toBe('already_voted');
    expect(voteRefusalReason(sandbox(403, 'The user holds no fan tokens of partner x.'))).toBe('not_holder');
    expect(voteRefusalReason(sandbox(422, 'Poll p is closed.'))).toBe('poll_not_open');
    expect(voteRefusalReason(sandbox(422, 'Poll p is not open yet.'))).toBe('poll_not_open');
    expect(voteRefusalReason(sandbox(422, 'Poll p was cancelled.'))).toBe('poll_not_open');
    expect(voteRefusalReason(sandbox(400, 'answerId a is not an answer of poll p.'))).toBe('unknown_answer');
    expect(voteRefusalReason(sandbox(404, 'Poll p not found.'))).toBe('unknown_poll');
  });

  it('reads a code that names the reason before the words and the status', () => {
    expect(voteRefusalReason(refusal(400, { code: 'ALREADY_VOTED', message: 'Bad Request' }))).toBe(
      'already_voted',
    );
    expect(voteRefusalReason(refusal(400, { error: 'poll-closed' }))).toBe('poll_not_open');
  });

  it('gives a plain 400 (a second vote on another platform) no reason, not “unknown answer”', () => {
    expect(voteRefusalReason(refusal(400))).toBeUndefined();
    expect(voteRefusalReason(refusal(400, { code: '400', message: 'Bad Request' }))).toBeUndefined();
    expect(voteRefusalReason(refusal(422))).toBeUndefined();
  });

  it('falls back on a status that means one thing only when the body says nothing', () => {
    expect([409, 403, 404].map((status) => voteRefusalReason(refusal(status)))).toEqual([
      'already_voted',
      'not_holder',
      'unknown_poll',
    ]);
  });

  it('gives an unknown code no reason, even on a status with a fallback', () => {
    expect(voteRefusalReason(refusal(409, { code: 'E_VOTE_77', message: 'Rejected' }))).toBeUndefined();
    expect(voteRefusalReason(refusal(400, { code: '123456' }))).toBeUndefined();
  });

  it('gives no reason for another error code or a non-platform error', () => {
    expect(voteRefusalReason(new PlatformError('forbidden', 'f', { status: 403 }))).toBeUndefined();
    expect(
      voteRefusalReason(Object.assign(new Error('x'), { code: 'vote_refused', status: 403 })),
    ).toBeUndefined();
  });

  it('has a message for every reason of the contract, and a generic one', () => {
    for (const reason of voteRefusalReasons) expect(voteRefusalMessages[reason]).toMatch(/\.$/);
    expect(voteRefusalMessages.unknown).toBe('The platform refused this vote.');
  });
});
