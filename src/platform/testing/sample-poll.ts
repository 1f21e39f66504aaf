/** A poll as the platform sends it (public context), for tests. */
export function samplePollJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '0f8c6a2e-4b1d-4c3e-9f5a-6b7c8d9e0f11',
    partnerId: '5b0a6c64-2f3e-4f5a-9a51-1d2c3b4a5e61',
    partnerName: 'Riverside FC',
    partnerImages: [
      {
        url: 'https://img.example/riverside.png?version=1690467849',
        type: 'png',
        format: 'desktop',
        width: '256',
        height: '256',
      },
    ],
    question: 'Who is the player of the match?',
    openAt: '2023-07-27T14:24:09+00:00',
    publicationDate: '2023-07-27T14:00:00+00:00',
    closeAt: '2023-07-28T14:24:09+00:00',
    disclosedAt: null,
    type: 'engagement',
    isBound: false,
    isQuorumReached: true,
    quorum: '0.2',
    currentQuorumPercentage: '0.35',
    usedTokenCount: 350,
    tokenLimit: 1000,
    status: 'open',
    information: 'Vote with your fan tokens.',
    answers: [
      {
        id: '1a2b3c4d-0000-4000-8000-000000000001',
        answer: 'Number 9',
        votePercentage: '60',
        totalVoteTokensUsed: 210,
        statistics: { uniqueAnswerVoteCount: 21 },
      },
      {
        id: '1a2b3c4d-0000-4000-8000-000000000002',
        answer: 'Number 10',
        votePercentage: '40',
        totalVoteTokensUsed: 140,
        statistics: { uniqueAnswerVoteCount: 14 },
      },
    ],
    statistics: { uniqueVoteCount: 35 },
    blockchainAddress: '0xabc',
    ...overrides,
  };
}
