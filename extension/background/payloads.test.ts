import { describe, expect, it } from 'vitest';
import { ExtensionError } from '../shared/extension-error.ts';
import { maxUserPollIds } from '../shared/messages.ts';
import { parseUserPollsQuery } from './payloads.ts';

const id = (n: number): string => `${n.toString(16).padStart(8, '0')}-2222-4333-8444-555555555555`;

function refusal(payload: unknown): string | undefined {
  try {
    parseUserPollsQuery(payload);
    return undefined;
  } catch (error) {
    return error instanceof ExtensionError ? error.code : 'not-an-extension-error';
  }
}

describe('parseUserPollsQuery', () => {
  it('takes the userVoted filter, and up to 50 poll ids', () => {
    expect(parseUserPollsQuery({ userVoted: true })).toEqual({ userVoted: true });
    const ids = Array.from({ length: maxUserPollIds }, (_, n) => id(n));
    expect(parseUserPollsQuery({ userVoted: false, ids })).toEqual({ userVoted: false, ids });
  });

  it.each([
    ['no userVoted', { ids: [id(1)] }],
    ['an empty id list', { userVoted: false, ids: [] }],
    ['too many ids', { userVoted: false, ids: Array.from({ length: maxUserPollIds + 1 }, (_, n) => id(n)) }],
    ['an id that is not a uuid', { userVoted: false, ids: [id(1), '../user/me'] }],
    ['ids that are not a list', { userVoted: false, ids: id(1) }],
  ])('refuses %s', (_, payload) => {
    expect(refusal(payload)).toBe('invalid_request');
  });
});
