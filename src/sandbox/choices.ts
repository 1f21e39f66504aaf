/**
 * Every choice the sandbox makes where the platform's documentation is silent, in one place. The README's sandbox
 * section (src/sandbox/README.md) mirrors this file as a table; change a value here when the truth is known.
 */
export const sandboxChoices = {
  /** Token lifetimes: WSO2 key manager defaults (platform-notes.md). Configurable per sandbox. */
  lifetimes: {
    accessTokenSeconds: 3600,
    refreshTokenSeconds: 86_400,
    authorizationCodeSeconds: 300,
    applicationTokenSeconds: 3600,
  },
  /**
   * Throttling: a fixed one-minute window (aligned to the sandbox clock's minute) per application, counted across
   * every API. WSO2's smallest default plan is 1000 a minute. Over the limit: 429 with the subscription-level code
   * of the notes' example, `nextAccessTime` at the window's end and `Retry-After` as an HTTP-date.
   */
  requestsPerMinute: 1000,
  throttleCode: '900804',
  /** Paging: `page` is 1-based; `limit` defaults to 20, 1..100 allowed; beyond that a 400. */
  paging: { defaultLimit: 20, maxLimit: 100, firstPage: 1 },
  /** `direction` values (not public; probably these), case-insensitive. Default ordering: `openAt` descending. */
  directions: ['asc', 'desc'] as const,
  defaultOrderBy: 'openAt',
  defaultDirection: 'desc',
  /** `orderBy` accepts these poll fields; ties break on `id` so that paging is stable. */
  orderByFields: [
    'openAt',
    'closeAt',
    'publicationDate',
    'disclosedAt',
    'question',
    'usedTokenCount',
  ] as const,
  /**
   * `cursor` is opaque: the base64url of the offset of the next item. Given a cursor, `page` is ignored. A list
   * answer is `{ data: Poll[] }` with no paging wrapper (as the platform); the next cursor is in the `X-Next-Cursor`
   * header when there is one (exposed to browsers through CORS).
   */
  cursorHeader: 'X-Next-Cursor',
  /** Vote confirmation: a vote is `pending` until the (simulated) chain confirms it, then `accepted`. */
  voteConfirmationMs: 4000,
  voteStatuses: { pending: 'pending', accepted: 'accepted', rejected: 'rejected' } as const,
  /** Simulated fans vote in every open poll at this rate (votes a minute per poll); 0 turns them off. */
  simulatedVotesPerMinute: 12,
  /** Seed of the simulation's random numbers, so that a run can be replayed. */
  simulationSeed: 20_250_101,
  /** The survey API's only version, and its list's shape (not shown in the spec): an empty array of surveys. */
  surveyVersions: ['1.0.0'] as const,
  apiVersions: { polls: ['1.0.8'], user: ['1.0.0'] } as const,
  /** `status` of a poll that is not cancelled follows its dates (only `cancelled` is known). */
  pollStatuses: ['scheduled', 'open', 'closed', 'disclosed', 'cancelled'] as const,
  /**
   * Partner images: two per club (`desktop` 512x512 and `mobile` 128x128 SVG logos) on the API origin under
   * `/assets/clubs/<slug>.svg`, with `?version=` the logos' upload time (the platform's one real timestamp).
   */
  logoVersion: 1_690_467_849,
  /** `voteStatus` on the answers the fan did not choose (user context): `null`. */
  voteStatusOfOtherAnswers: null,
  /** `type` of every seeded poll (the one known value). */
  pollType: 'engagement',
  /** A poll whose `publicationDate` is still ahead is not listed, and reading it answers 404 "Entity not found". */
  hideUnpublishedPolls: true,
  /** Results (percentages, counts) are live in every phase, also before `disclosedAt`. */
  resultsLiveBeforeDisclosure: true,
  /**
   * Quorum: `quorum` and `currentQuorumPercentage` are fractions of the poll's eligible token supply (the club's
   * circulating fan tokens, a sandbox-internal number per poll): current = usedTokenCount / supply, up to 4
   * decimals, trailing zeros cut (`"0.2"`, `"0.1534"`, `"0"`). `isQuorumReached` is current >= quorum.
   */
  quorumDecimals: 4,
  /**
   * `votePercentage`: share of the poll's used tokens, a percentage with 2 decimals (`"42.50"`), rounded by largest
   * remainder so that a poll's answers add up to exactly `"100.00"` (all `"0.00"` before the first vote).
   */
  votePercentageDecimals: 2,
  /** A pending vote counts in the tallies at once; a vote that ends `rejected` drops out when it is confirmed. */
  pendingVotesCount: true,
  /**
   * Vote refusals, checked in this order, each with the backend error shape `{"code":"<status>","message",
   * "description"}` and its own description.
   */
  voteRefusals: {
    poll_not_found: 404,
    invalid_body: 400,
    unknown_answer: 400,
    poll_cancelled: 422,
    poll_not_open_yet: 422,
    poll_closed: 422,
    not_a_holder: 403,
    already_voted: 409,
  } as const,
  /** Every poll route answers an unknown query parameter with a 400 (the history route takes only its six). */
  rejectUnknownQueryParameters: true,
  /** `/user/polls/history`: the polls the fan has voted in (any phase, also rejected votes). */
  historyMeans: 'polls the fan voted in',
  /** `userVoted`: `true` and `false` both list only the polls the fan voted in, as the spec says. */
  userVotedFalseMeansTrue: true,
  /** A user token is accepted on application (no `user`) routes: WSO2 accepts any valid token of a subscribed app. */
  userTokenOnApplicationRoutes: 'accepted',
  /** Expired tokens answer 900901 like unknown ones (WSO2 answers 900903 on some paths; clients treat both alike). */
  expiredTokenCode: '900901',
  /** Fault 5xx bodies: 502/503 as WSO2's "Error connecting to the back end", 504 "Send timeout", 500 a backend's. */
  faultErrorStatus: 503,
  faultRetryAfterSeconds: 30,
} as const;
