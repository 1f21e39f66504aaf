/**
 * Every choice the sandbox makes where the platform's documentation is silent, in one place. The README's sandbox
 * section mirrors this file as a table; change a value here when the truth about the real platform is known.
 */
export const sandboxChoices = {
  /** Token lifetimes: WSO2 key manager defaults (platform-notes.md). Configurable per sandbox. */
  lifetimes: {
    accessTokenSeconds: 3600,
    refreshTokenSeconds: 86_400,
    authorizationCodeSeconds: 300,
    applicationTokenSeconds: 3600,
  },
  /** Throttling per application and per minute (WSO2's smallest default plan is 1000 a minute). */
  requestsPerMinute: 1000,
  /** Paging: `page` is 1-based; `limit` defaults to 20, 1..100 allowed; beyond that a 400. */
  paging: { defaultLimit: 20, maxLimit: 100, firstPage: 1 },
  /** `direction` values (not public; probably these). Default ordering: `openAt` descending. */
  directions: ['asc', 'desc'] as const,
  defaultOrderBy: 'openAt',
  defaultDirection: 'desc',
  /** `orderBy` accepts these poll fields. */
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
   * header when there is one.
   */
  cursorHeader: 'X-Next-Cursor',
  /** Vote confirmation: a vote is `pending` until the (simulated) chain confirms it, then `accepted`. */
  voteConfirmationMs: 4000,
  voteStatuses: { pending: 'pending', accepted: 'accepted', rejected: 'rejected' } as const,
  /** Simulated fans vote in every open poll at this rate (votes a minute per poll); 0 turns them off. */
  simulatedVotesPerMinute: 12,
  /** The survey API's only version, and its list's shape (not shown in the spec): an empty array of surveys. */
  surveyVersions: ['1.0.0'] as const,
  apiVersions: { polls: ['1.0.8'], user: ['1.0.0'] } as const,
} as const;

export type SandboxChoices = typeof sandboxChoices;
