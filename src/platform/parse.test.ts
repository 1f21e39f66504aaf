import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlatformError } from './errors.ts';
import {
  parseCurrentUser,
  parseGatewayError,
  parsePoll,
  parsePollList,
  parseSurveyList,
  parseTokenError,
} from './parse.ts';
import { samplePollJson } from './testing/sample-poll.ts';

function malformedCode(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof PlatformError ? error.code : `not a PlatformError: ${String(error)}`;
  }
}

describe('parsePollList', () => {
  it('reads data as an array', () => {
    const polls = parsePollList({ data: [samplePollJson(), samplePollJson({ id: 'b' })] });
    expect(polls.map((poll) => poll.id)).toEqual(['0f8c6a2e-4b1d-4c3e-9f5a-6b7c8d9e0f11', 'b']);
    expect(polls[0]?.answers[1]?.answer).toBe('Number 10');
    expect(polls[0]?.partnerImages[0]?.width).toBe('256');
  });

  it('reads data as a single object (the documented example)', () => {
    expect(parsePollList({ data: samplePollJson() })).toHaveLength(1);
  });

  it('reads an empty list', () => {
    expect(parsePollList({ data: [] })).toEqual([]);
  });

  it('turns numeric decimals into strings and digit strings into counts', () => {
    const [poll] = parsePollList({
      data: [samplePollJson({ quorum: 0.2, currentQuorumPercentage: 0.35, usedTokenCount: '350' })],
    });
    expect(poll?.quorum).toBe('0.2');
    expect(poll?.currentQuorumPercentage).toBe('0.35');
    expect(poll?.usedTokenCount).toBe(350);
  });

  it('keeps unknown enum values as they are', () => {
    const poll = parsePoll({
      data: samplePollJson({
        status: 'frozen-by-referee',
        type: 'prediction',
        answers: [{ id: 'a', answer: 'x', voteStatus: 'on-chain-limbo' }],
      }),
    });
    expect(poll.status).toBe('frozen-by-referee');
    expect(poll.type).toBe('prediction');
    expect(poll.answers[0]?.voteStatus).toBe('on-chain-limbo');
  });

  it('allows missing optional fields and turns null dates into absent ones', () => {
    const poll = parsePoll({ data: { id: 'p', question: 'Q?', answers: [], openAt: null, closeAt: null } });
    expect(poll).toMatchObject({ id: 'p', question: 'Q?', partnerImages: [], quorum: '0', status: '' });
    expect('openAt' in poll).toBe(false);
    expect('closeAt' in poll).toBe(false);
    expect('disclosedAt' in parsePoll({ data: samplePollJson() })).toBe(false);
  });

  it('reads the user-context fields', () => {
    const poll = parsePoll({ data: samplePollJson({ userVote: true, type: undefined }) });
    expect(poll.userVote).toBe(true);
    expect(poll.type).toBeUndefined();
  });

  it('skips an image without a URL rather than failing the poll', () => {
    const poll = parsePoll({
      data: samplePollJson({ partnerImages: [{ type: 'png' }, { url: 'https://x/y.png' }] }),
    });
    expect(poll.partnerImages).toEqual([{ url: 'https://x/y.png' }]);
  });

  it.each([
    ['no data', {}],
    ['not an object', 'hello'],
    ['null data', { data: null }],
    ['a poll without answers', { data: { id: 'p', question: 'Q?' } }],
    ['a poll without an id', { data: { question: 'Q?', answers: [] } }],
    ['an answer without an id', { data: samplePollJson({ answers: [{ answer: 'x' }] }) }],
    ['a negative count', { data: samplePollJson({ tokenLimit: -1 }) }],
    ['a list of strings', { data: ['a', 'b'] }],
  ])('rejects %s as malformed_response', (_name, body) => {
    expect(malformedCode(() => parsePollList(body))).toBe('malformed_response');
  });
});

describe('lenient reading of what the card does not use', () => {
  it('reads an unreadable votePercentage, quorum or flag as absent, not as a failed poll', () => {
    const poll = samplePollJson({ quorum: 'a lot', isBound: 'maybe', status: 7, information: {} });
    poll.answers = [{ ...(poll.answers as object[])[0], votePercentage: 'n/a', voteStatus: 3 }];
    const [parsed] = parsePollList({ data: [poll] });
    expect(parsed?.quorum).toBe('0');
    expect(parsed?.isBound).toBe(false);
    expect(parsed?.status).toBe('');
    expect(parsed?.information).toBe('');
    expect(parsed?.answers[0]?.votePercentage).toBe('0');
    expect(parsed?.answers[0]?.voteStatus).toBeUndefined();
  });

  it('drops a poll whose needed field is unreadable, keeps the rest of the list, and says why', () => {
    const good = samplePollJson();
    const bad = samplePollJson({
      id: 'bad',
      answers: [{ id: 'a', answer: 'x', totalVoteTokensUsed: 'many' }],
    });
    const dropped: string[] = [];
    const polls = parsePollList({ data: [bad, good] }, (reason) => dropped.push(reason));
    expect(polls.map((poll) => poll.id)).toEqual([good.id]);
    expect(dropped).toEqual(['data[0].answers[0].totalVoteTokensUsed: expected a non-negative integer']);
  });

  it('fails a list only when it can read none of its polls', () => {
    expect(malformedCode(() => parsePollList({ data: [{ id: 'x' }, 'y'] }))).toBe('malformed_response');
    expect(parsePollList({ data: [] })).toEqual([]);
  });
});

describe('parsePoll', () => {
  it('accepts a one-element array and rejects a longer one', () => {
    expect(parsePoll({ data: [samplePollJson()] }).id).toBe('0f8c6a2e-4b1d-4c3e-9f5a-6b7c8d9e0f11');
    expect(malformedCode(() => parsePoll({ data: [samplePollJson(), samplePollJson()] }))).toBe(
      'malformed_response',
    );
  });
});

describe('parseCurrentUser and parseSurveyList', () => {
  it('reads data.userId', () => {
    expect(parseCurrentUser({ data: { userId: 'u-1' } })).toEqual({ userId: 'u-1' });
    expect(malformedCode(() => parseCurrentUser({ data: {} }))).toBe('malformed_response');
  });

  it('reads surveys as objects', () => {
    expect(parseSurveyList({ data: [] })).toEqual([]);
    expect(parseSurveyList({ data: [{ id: 's' }] })).toEqual([{ id: 's' }]);
    expect(malformedCode(() => parseSurveyList({ data: [1] }))).toBe('malformed_response');
  });
});

describe('error bodies', () => {
  it('reads the gateway body, with a numeric code too', () => {
    expect(parseGatewayError({ code: '900901', message: 'Invalid Credentials', description: 'd' })).toEqual({
      code: '900901',
      message: 'Invalid Credentials',
      description: 'd',
    });
    expect(parseGatewayError({ code: 404 })).toEqual({ code: '404' });
    expect(parseGatewayError('<html>')).toBeUndefined();
  });

  it('reads the token error body', () => {
    expect(parseTokenError({ error: 'invalid_grant', error_description: 'PKCE validation failed' })).toEqual({
      error: 'invalid_grant',
      errorDescription: 'PKCE validation failed',
    });
    expect(parseTokenError({ error: 5 })).toBeUndefined();
  });
});

describe('parsing never throws anything but malformed_response (property)', () => {
  const onlyMalformed = (run: () => unknown) => {
    const code = malformedCode(run);
    return code === undefined || code === 'malformed_response';
  };

  it('on arbitrary JSON, bare and under data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const parse of [parsePollList, parsePoll, parseCurrentUser, parseSurveyList]) {
          if (!onlyMalformed(() => parse(value))) return false;
          if (!onlyMalformed(() => parse({ data: value }))) return false;
        }
        return true;
      }),
      { numRuns: 1000 },
    );
  });

  const fieldNames = Object.keys(samplePollJson());
  const answerFieldNames = [
    'id',
    'answer',
    'votePercentage',
    'totalVoteTokensUsed',
    'statistics',
    'voteStatus',
  ];

  it('on valid polls with fields replaced by arbitrary JSON or removed', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            field: fc.constantFrom(...fieldNames),
            value: fc.option(fc.jsonValue(), { nil: undefined }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.record({ field: fc.constantFrom(...answerFieldNames), value: fc.jsonValue() }),
        fc.boolean(),
        (mutations, answerMutation, asArray) => {
          const poll = samplePollJson();
          for (const { field, value } of mutations) {
            if (value === undefined) Reflect.deleteProperty(poll, field);
            else poll[field] = value;
          }
          if (Array.isArray(poll.answers) && poll.answers.length > 0) {
            poll.answers = [{ ...(poll.answers[0] as object), [answerMutation.field]: answerMutation.value }];
          }
          const body = { data: asArray ? [poll] : poll };
          try {
            const [parsed] = parsePollList(body);
            // A poll that parses is whole: the required fields have their types.
            return (
              typeof parsed?.id === 'string' &&
              typeof parsed.question === 'string' &&
              parsed.answers.every((answer) => typeof answer.id === 'string')
            );
          } catch (error) {
            return error instanceof PlatformError && error.code === 'malformed_response';
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
