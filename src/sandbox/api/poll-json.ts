import { sandboxChoices } from '../choices.ts';
import { allClubs } from '../data/clubs.ts';
import type { FanVote } from '../data/poll-store.ts';
import type { PollTally } from '../data/poll-tally.ts';
import type { StoredPoll } from '../data/poll-types.ts';

/** Who is asking: the public (application token) or a fan (user token) and whether and how they voted. */
export type PollAudience = { readonly kind: 'public' } | { readonly kind: 'user'; readonly vote?: FanVote };

/** ISO 8601 with an explicit `+00:00` offset and whole seconds, like the platform's one real timestamp. */
export function isoWithOffset(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', '+00:00');
}

/** A poll as the platform's JSON: every field of the spec's tables, in their order, decimals as strings. */
export function pollJson(
  poll: StoredPoll,
  tally: PollTally,
  audience: PollAudience,
  apiOrigin: string,
): Record<string, unknown> {
  const club = allClubs.find((candidate) => candidate.partnerId === poll.partnerId);
  const userContext = audience.kind === 'user';
  return {
    id: poll.id,
    partnerId: poll.partnerId,
    partnerName: club?.name ?? '',
    partnerImages: club ? partnerImages(club.slug, apiOrigin) : [],
    question: poll.question,
    openAt: isoWithOffset(poll.openAt),
    publicationDate: isoWithOffset(poll.publicationDate),
    closeAt: isoWithOffset(poll.closeAt),
    disclosedAt: isoWithOffset(poll.disclosedAt),
    ...(userContext ? {} : { type: poll.type }),
    isBound: poll.isBound,
    isQuorumReached: tally.isQuorumReached,
    quorum: poll.quorum,
    currentQuorumPercentage: tally.currentQuorumPercentage,
    usedTokenCount: tally.usedTokenCount,
    tokenLimit: poll.tokenLimit,
    status: tally.phase,
    information: poll.information,
    answers: tally.answers.map((answer) => ({
      id: answer.answer.id,
      answer: answer.answer.text,
      votePercentage: answer.votePercentage,
      totalVoteTokensUsed: answer.totalVoteTokensUsed,
      statistics: { uniqueAnswerVoteCount: answer.uniqueAnswerVoteCount },
      ...(audience.kind === 'user'
        ? {
            voteStatus:
              audience.vote?.answerId === answer.answer.id
                ? audience.vote.status
                : sandboxChoices.voteStatusOfOtherAnswers,
          }
        : {}),
    })),
    statistics: { uniqueVoteCount: tally.uniqueVoteCount },
    ...(audience.kind === 'user' ? { userVote: audience.vote !== undefined } : {}),
    blockchainAddress: poll.blockchainAddress,
  };
}

function partnerImages(slug: string, apiOrigin: string): Record<string, string>[] {
  const url = `${apiOrigin}/assets/clubs/${slug}.svg?version=${sandboxChoices.logoVersion}`;
  return [
    { url, type: 'svg', format: 'desktop', width: '512', height: '512' },
    { url, type: 'svg', format: 'mobile', width: '128', height: '128' },
  ];
}
