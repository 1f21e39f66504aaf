import type { Answer, Poll } from '../platform/types.ts';

/** A well-formed poll for tests and benchmarks; override any field. Answers get ids `a1`, `a2`, ... by default. */
export function pollFixture(overrides: Partial<Poll> = {}): Poll {
  return {
    id: '0b7a3c1e-4d5f-4a6b-8c7d-9e0f1a2b3c4d',
    partnerId: '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61',
    partnerName: 'Riverside FC',
    partnerImages: [],
    question: 'Who was the player of the match?',
    openAt: '2026-05-01T12:00:00+00:00',
    publicationDate: '2026-05-01T11:00:00+00:00',
    closeAt: '2026-05-01T14:00:00+00:00',
    disclosedAt: '2026-05-01T15:00:00+00:00',
    type: 'engagement',
    isBound: false,
    isQuorumReached: false,
    quorum: '0.2',
    currentQuorumPercentage: '0.05',
    usedTokenCount: 0,
    tokenLimit: 1000,
    status: 'active',
    information: '',
    answers: [answerFixture({ id: 'a1', answer: 'Ada' }), answerFixture({ id: 'a2', answer: 'Bea' })],
    statistics: { uniqueVoteCount: 0 },
    ...overrides,
  };
}

export function answerFixture(overrides: Partial<Answer> = {}): Answer {
  return {
    id: 'a1',
    answer: 'Ada',
    votePercentage: '0',
    totalVoteTokensUsed: 0,
    statistics: { uniqueAnswerVoteCount: 0 },
    ...overrides,
  };
}

/** Instants around the fixture's dates. */
export const fixtureTimes = {
  beforeOpen: Date.parse('2026-05-01T11:30:00Z'),
  openAt: Date.parse('2026-05-01T12:00:00Z'),
  whileOpen: Date.parse('2026-05-01T13:00:00Z'),
  closeAt: Date.parse('2026-05-01T14:00:00Z'),
  afterClose: Date.parse('2026-05-01T14:30:00Z'),
  disclosedAt: Date.parse('2026-05-01T15:00:00Z'),
  afterDisclosure: Date.parse('2026-05-01T16:00:00Z'),
} as const;
