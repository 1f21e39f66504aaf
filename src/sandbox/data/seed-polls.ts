import { clubs, type Club } from './clubs.ts';
import { findFanByUsername } from './fans.ts';
import type { StoredPoll, StoredVote } from './poll-types.ts';
import { stableAddress, stableUuid } from './stable-ids.ts';
import { sandboxChoices } from '../choices.ts';

const hour = 3_600_000;
const day = 24 * hour;

/** Where a seeded poll sits in time, relative to the moment the sandbox seeds (hours from then). */
interface Timeline {
  readonly publication: number;
  readonly open: number;
  readonly close: number;
  readonly disclose: number;
}

interface PollSeed {
  readonly key: string;
  readonly club: Club;
  readonly question: string;
  readonly information: string;
  readonly timeline: Timeline;
  readonly isBound: boolean;
  readonly quorum: string;
  /** The fraction of the supply the seeded votes reach; with no seeded votes, the supply is `supply`. */
  readonly reachedFraction?: number;
  readonly supply?: number;
  readonly tokenLimit: number;
  readonly cancelled?: boolean;
  /** Answer text and the number of fans who voted for it before the sandbox started. */
  readonly answers: readonly (readonly [string, number])[];
  /** Average tokens a seeded voter used. */
  readonly averageTokens: number;
  /** Seeded fans' past votes: username and answer index. */
  readonly fanVotes?: readonly (readonly [string, number])[];
}

const openNow: Timeline = { publication: -3 * 24, open: -2 * 24, close: 5 * 24, disclose: 6 * 24 };
const scheduled: Timeline = { publication: -24, open: 2 * 24, close: 9 * 24, disclose: 10 * 24 };
const closedAwaitingResults: Timeline = {
  publication: -21 * 24,
  open: -20 * 24,
  close: -24,
  disclose: 2 * 24,
};
const disclosed: Timeline = { publication: -40 * 24, open: -38 * 24, close: -30 * 24, disclose: -28 * 24 };

const seeds: readonly PollSeed[] = [
  {
    key: 'riverside-player-of-the-month',
    club: clubs.riverside,
    question: 'Who was our player of the month?',
    information: 'Pick the Riverside FC player who impressed you most this month.',
    timeline: openNow,
    isBound: false,
    quorum: '0.1',
    reachedFraction: 0.16,
    tokenLimit: 500,
    answers: [
      ['Marta Silva', 1240],
      ['Jonas Berg', 860],
      ['Ade Okafor', 1510],
      ['Luca Romano', 390],
    ],
    averageTokens: 18,
  },
  {
    key: 'riverside-away-kit',
    club: clubs.riverside,
    question: 'Which away kit should we wear next season?',
    information: 'The winning design is produced for the next season: the result is binding.',
    timeline: openNow,
    isBound: true,
    quorum: '0.25',
    reachedFraction: 0.09,
    tokenLimit: 1000,
    answers: [
      ['Midnight blue with gold trim', 640],
      ['Classic white', 420],
      ['Retro green stripes', 515],
    ],
    averageTokens: 24,
  },
  {
    key: 'northgate-walkout-song',
    club: clubs.northgate,
    question: 'Which song should play when the team walks out?',
    information: 'Played at every home match for the rest of the season.',
    timeline: { ...openNow, open: -5 * 24, close: 3 * 24, disclose: 3 * 24 },
    isBound: true,
    quorum: '0.05',
    reachedFraction: 0.082,
    tokenLimit: 250,
    answers: [
      ['Stand Together', 930],
      ['Northern Lights', 710],
      ['Blue Anthem', 1180],
      ['The Gate Roars', 330],
      ['Drums of the North', 205],
    ],
    averageTokens: 12,
  },
  {
    key: 'harbour-academy-game',
    club: clubs.harbourEsports,
    question: 'Which game should our academy team enter next?',
    information: 'The academy enters one new title this year.',
    timeline: openNow,
    isBound: false,
    quorum: '0.3',
    reachedFraction: 0.12,
    tokenLimit: 100,
    answers: [
      ['Rocket League', 410],
      ['Valorant', 535],
    ],
    averageTokens: 9,
  },
  {
    key: 'harbour-warm-up-playlist',
    club: clubs.harbourEsports,
    question: 'Which playlist for tonight’s warm-up stream?',
    information: 'Closes in two hours: the stream starts right after.',
    timeline: { publication: -26, open: -24, close: 2, disclose: 2 },
    isBound: false,
    quorum: '0.02',
    reachedFraction: 0.03,
    tokenLimit: 50,
    answers: [
      ['Synthwave', 128],
      ['Lo-fi beats', 164],
    ],
    averageTokens: 6,
  },
  {
    key: 'riverside-preseason-destination',
    club: clubs.riverside,
    question: 'Where should we play our pre-season friendly?',
    information: 'Voting opens in two days.',
    timeline: scheduled,
    isBound: false,
    quorum: '0.1',
    supply: 420_000,
    tokenLimit: 500,
    answers: [
      ['Lisbon', 0],
      ['Dublin', 0],
      ['Kraków', 0],
    ],
    averageTokens: 0,
  },
  {
    key: 'northgate-cafe-name',
    club: clubs.northgate,
    question: 'Name the new training-ground café',
    information: 'Six names shortlisted by the supporters’ club.',
    timeline: { ...scheduled, open: 4 * 24, close: 11 * 24, disclose: 11 * 24 },
    isBound: true,
    quorum: '0.08',
    supply: 310_000,
    tokenLimit: 250,
    answers: [
      ['The Gatehouse', 0],
      ['Half Time', 0],
      ['The Dugout', 0],
      ['Blue Brew', 0],
      ['North Stand', 0],
      ['Corner Flag', 0],
    ],
    averageTokens: 0,
  },
  {
    key: 'riverside-charity-partner',
    club: clubs.riverside,
    question: 'Which charity should be our partner this season?',
    information: 'Voting has closed; results are disclosed in two days.',
    timeline: closedAwaitingResults,
    isBound: true,
    quorum: '0.15',
    reachedFraction: 0.21,
    tokenLimit: 500,
    answers: [
      ['Youth football academy', 2210],
      ['Local food bank', 1980],
      ['Mental health helpline', 1645],
    ],
    averageTokens: 21,
    fanVotes: [['sam', 0]],
  },
  {
    key: 'northgate-goal-of-the-season',
    club: clubs.northgate,
    question: 'Goal of the season?',
    information: 'Four goals nominated by the coaching staff.',
    timeline: { ...closedAwaitingResults, close: -6, disclose: 24 },
    isBound: false,
    quorum: '0.2',
    reachedFraction: 0.11,
    tokenLimit: 250,
    answers: [
      ['Volley against Eastport', 540],
      ['Solo run in the cup final', 780],
      ['Free kick at Millbrook', 305],
      ['Last-minute header', 615],
    ],
    averageTokens: 14,
    fanVotes: [['kim', 1]],
  },
  {
    key: 'riverside-armband-design',
    club: clubs.riverside,
    question: 'Which captain’s armband design do you prefer?',
    information: 'Results disclosed: the winning design is worn from next month.',
    timeline: disclosed,
    isBound: true,
    quorum: '0.1',
    reachedFraction: 0.13,
    tokenLimit: 500,
    answers: [
      ['River wave', 1890],
      ['Club crest', 2430],
    ],
    averageTokens: 16,
    fanVotes: [
      ['sam', 1],
      ['alex', 0],
    ],
  },
  {
    key: 'harbour-finals-jersey',
    club: clubs.harbourEsports,
    question: 'Jersey colour for the finals?',
    information: 'An advisory poll: the team has the last word.',
    timeline: { ...disclosed, close: -12 * 24, disclose: -11 * 24 },
    isBound: false,
    quorum: '0.35',
    reachedFraction: 0.19,
    tokenLimit: 100,
    answers: [
      ['Harbour green', 512],
      ['Black and gold', 388],
      ['White', 144],
    ],
    averageTokens: 8,
  },
  {
    key: 'northgate-mascot-name',
    club: clubs.northgate,
    question: 'What should our new mascot be called?',
    information: 'The mascot is named after the winning answer.',
    timeline: { ...disclosed, publication: -70 * 24, open: -68 * 24, close: -60 * 24, disclose: -59 * 24 },
    isBound: true,
    quorum: '0.05',
    reachedFraction: 0.094,
    tokenLimit: 250,
    answers: [
      ['Gatekeeper Gus', 1320],
      ['Nora the Owl', 1745],
      ['Bluey', 980],
      ['Captain North', 615],
      ['Stripes', 420],
      ['Ned', 265],
    ],
    averageTokens: 11,
    fanVotes: [['sam', 1]],
  },
  {
    key: 'riverside-away-day-travel',
    club: clubs.riverside,
    question: 'Which travel partner for away days?',
    information: 'Cancelled: the travel contract was renewed before the vote ended.',
    timeline: openNow,
    isBound: false,
    quorum: '0.1',
    reachedFraction: 0.04,
    tokenLimit: 500,
    cancelled: true,
    answers: [
      ['Coach company A', 210],
      ['Rail partner B', 320],
      ['Airline C', 95],
    ],
    averageTokens: 15,
  },
  {
    key: 'harbour-stream-schedule',
    club: clubs.harbourEsports,
    question: 'Which evening should the weekly stream move to?',
    information: 'Cancelled before it opened.',
    timeline: scheduled,
    isBound: false,
    quorum: '0.1',
    supply: 90_000,
    tokenLimit: 100,
    cancelled: true,
    answers: [
      ['Tuesday', 0],
      ['Thursday', 0],
    ],
    averageTokens: 0,
  },
  {
    key: 'northgate-stadium-naming',
    club: clubs.northgate,
    question: 'Should the stadium keep its name?',
    information: 'Not published yet: hidden from every list until its publication date.',
    timeline: { publication: 3 * 24, open: 5 * 24, close: 12 * 24, disclose: 13 * 24 },
    isBound: true,
    quorum: '0.3',
    supply: 310_000,
    tokenLimit: 250,
    answers: [
      ['Yes', 0],
      ['No', 0],
    ],
    averageTokens: 0,
  },
];

/** A seeded poll's id from its key (`seededPollId('riverside-away-kit')`), for tests and docs. */
export function seededPollId(key: string): string {
  return stableUuid(`poll:${key}`);
}

/** Seeds every poll relative to `now` (floored to the minute, so that dates read well). */
export function seedPolls(now: number): StoredPoll[] {
  const origin = Math.floor(now / 60_000) * 60_000;
  return seeds.map((seed) => buildPoll(seed, origin));
}

function buildPoll(seed: PollSeed, origin: number): StoredPoll {
  const id = seededPollId(seed.key);
  const answers = seed.answers.map(([text, voters], index) => ({
    id: stableUuid(`answer:${seed.key}:${index}`),
    text,
    seededVoters: voters,
    // Vary the average a little per answer, so that token shares differ from voter shares.
    seededTokens: Math.round(voters * seed.averageTokens * (0.85 + 0.1 * (index % 4))),
  }));
  const seededTokens = answers.reduce((sum, answer) => sum + answer.seededTokens, 0);
  const supply =
    seed.reachedFraction !== undefined && seededTokens > 0
      ? Math.ceil(seededTokens / seed.reachedFraction)
      : (seed.supply ?? 100_000);
  const at = (hours: number): number => origin + hours * hour;
  const openAt = at(seed.timeline.open);
  const votes: StoredVote[] = (seed.fanVotes ?? []).flatMap(([username, answerIndex]) => {
    const fan = findFanByUsername(username);
    const answer = answers[answerIndex];
    if (!fan || !answer) return [];
    const holding = fan.holdings[seed.club.partnerId] ?? 0;
    return [
      {
        userId: fan.userId,
        answerId: answer.id,
        weight: Math.min(holding, seed.tokenLimit),
        castAt: openAt + hour,
        endsRejected: false,
      },
    ];
  });
  return {
    id,
    partnerId: seed.club.partnerId,
    question: seed.question,
    information: seed.information,
    type: sandboxChoices.pollType,
    publicationDate: at(seed.timeline.publication),
    openAt,
    closeAt: at(seed.timeline.close),
    disclosedAt: at(seed.timeline.disclose),
    isBound: seed.isBound,
    quorum: seed.quorum,
    eligibleTokenSupply: supply,
    tokenLimit: seed.tokenLimit,
    cancelled: seed.cancelled ?? false,
    blockchainAddress: stableAddress(seed.key),
    answers,
    votes,
  };
}

export { day as dayMs, hour as hourMs };
