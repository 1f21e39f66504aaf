/**
 * Why the platform refused a vote, as the stable reason of the proxy and bridge contracts, read from what the
 * platform says. The platform does not publish what it answers to a non-holder, a second vote or a closed poll, so
 * the reading goes from the most to the least telling: a code in its error body that names the reason, then the
 * body's words (`description`, `message`), then the HTTP status where one status can mean one thing only (403, 404,
 * 409). A 400 or 422 with nothing else, or a code this table does not know, gives no reason: the fan is told
 * plainly that the platform refused the vote, never a guess. The sandbox's answers (`src/sandbox/choices.ts`,
 * `voteRefusals`: a code echoing the status and an English description) are read by their words.
 */
import type { VoteRefusalReason } from '../contracts/proxy-contract.ts';
import { PlatformError } from './errors.ts';
import { parseGatewayError, parseTokenError } from './parse.ts';

/** Codes a platform may use for a refusal, lower-cased with `-`/space as `_`. */
const reasonByCode: ReadonlyMap<string, VoteRefusalReason> = new Map([
  ['already_voted', 'already_voted'],
  ['duplicate_vote', 'already_voted'],
  ['vote_already_exists', 'already_voted'],
  ['not_holder', 'not_holder'],
  ['not_a_holder', 'not_holder'],
  ['insufficient_fan_tokens', 'not_holder'],
  ['no_fan_tokens', 'not_holder'],
  ['poll_closed', 'poll_not_open'],
  ['poll_not_open', 'poll_not_open'],
  ['poll_not_open_yet', 'poll_not_open'],
  ['poll_cancelled', 'poll_not_open'],
  ['unknown_answer', 'unknown_answer'],
  ['invalid_answer', 'unknown_answer'],
  ['answer_not_found', 'unknown_answer'],
  ['poll_not_found', 'unknown_poll'],
  ['unknown_poll', 'unknown_poll'],
]);

/** The body's words, first match wins (a second vote's text may also name the poll). */
const reasonByWords: readonly (readonly [RegExp, VoteRefusalReason])[] = [
  [/already (?:voted|has a vote|cast)/i, 'already_voted'],
  [/holds? no|not a (?:fan[- ]token )?holder|fan tokens?/i, 'not_holder'],
  [/\b(?:closed|not open|cancell?ed)\b/i, 'poll_not_open'],
  [/not an answer|answer\w* (?:is )?(?:not|unknown|invalid)|unknown answer/i, 'unknown_answer'],
  [/poll .*not found|no such poll|unknown poll/i, 'unknown_poll'],
];

/** Statuses that mean one thing only, used when the body says nothing. */
const reasonByStatus: ReadonlyMap<number, VoteRefusalReason> = new Map([
  [403, 'not_holder'],
  [404, 'unknown_poll'],
  [409, 'already_voted'],
]);

/** The reason of a `vote_refused` PlatformError; undefined when the platform did not say one this table knows. */
export function voteRefusalReason(error: unknown): VoteRefusalReason | undefined {
  if (!(error instanceof PlatformError) || error.code !== 'vote_refused') return undefined;
  const said = whatThePlatformSaid(error);
  const named = said.code === undefined ? undefined : reasonByCode.get(said.code);
  if (named !== undefined) return named;
  for (const [words, reason] of reasonByWords) if (said.words.some((text) => words.test(text))) return reason;
  // A code of its own that this table does not know: the platform said something else; no guess from the status.
  if (said.code !== undefined && said.code !== String(error.status)) return undefined;
  return error.status === undefined ? undefined : reasonByStatus.get(error.status);
}

function whatThePlatformSaid(error: PlatformError): { code: string | undefined; words: string[] } {
  const body: unknown = error.cause;
  const gateway = parseGatewayError(body);
  const oauthStyle = parseTokenError(body);
  const rawCode = error.platformCode ?? gateway?.code ?? oauthStyle?.error;
  const code = rawCode
    ?.trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const words = [gateway?.description, gateway?.message, oauthStyle?.errorDescription].filter(
    (text): text is string => text !== undefined && text !== '',
  );
  return { code: code === '' ? undefined : code, words };
}

/** What to tell the fan, one sentence a reason (and one for a refusal with no reason). */
export const voteRefusalMessages: Readonly<Record<VoteRefusalReason | 'unknown', string>> = {
  not_holder: 'Only holders of this club’s fan tokens can vote in this poll.',
  already_voted: 'You have already voted in this poll.',
  poll_not_open: 'This poll is not open for votes.',
  unknown_answer: 'This answer is not part of the poll.',
  unknown_poll: 'This poll does not exist.',
  unknown: 'The platform refused this vote.',
};
