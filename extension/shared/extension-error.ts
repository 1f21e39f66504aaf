import { isVoteRefusalReason, type VoteRefusalReason } from '../../src/contracts/proxy-contract.ts';

/** Stable codes of everything the extension reports to its pages and to web pages; messages are for people. */
export const extensionErrorCodes = [
  /** No fan is signed in (or the session ended). */
  'signed_out',
  /** The fan refused consent on the platform's page, or closed the sign-in window. */
  'access_denied',
  /** Sign-in failed for another reason (state mismatch, bad callback, token exchange failed). */
  'sign_in_failed',
  /** The refresh token is no longer valid: the fan was signed out. */
  'invalid_grant',
  /** The proxy or the platform could not be reached or answered an error; try again later. */
  'unavailable',
  /** The platform refused the call (vote refused, poll not found, ...); a vote's refusal may carry a `reason`. */
  'refused',
  /** The fan cancelled a proposed vote in the confirmation window (or closed it): nothing was sent. */
  'vote_cancelled',
  /** A window was asked for without a fresh click by the fan in the page: none opened. */
  'user_activation_required',
  /** Too many prompts for one site: try again later. */
  'rate_limited',
  /** The message did not have the expected shape. */
  'invalid_request',
  /** The sender may not ask for this. */
  'forbidden',
] as const;

export type ExtensionErrorCode = (typeof extensionErrorCodes)[number];

export class ExtensionError extends Error {
  override readonly name = 'ExtensionError';

  /** With `refused` for a vote: why, when the platform said. */
  readonly reason: VoteRefusalReason | undefined;

  constructor(
    readonly code: ExtensionErrorCode,
    message: string,
    options?: { cause?: unknown; reason?: VoteRefusalReason },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options?.reason;
  }
}

export function isExtensionErrorCode(value: unknown): value is ExtensionErrorCode {
  return typeof value === 'string' && (extensionErrorCodes as readonly string[]).includes(value);
}

/** What crosses a message boundary: the code and a message, never the cause (it may hold a URL with a code). */
export interface SerializedError {
  readonly code: ExtensionErrorCode;
  readonly message: string;
  readonly reason?: VoteRefusalReason;
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof ExtensionError) {
    return {
      code: error.code,
      message: error.message,
      ...(isVoteRefusalReason(error.reason) ? { reason: error.reason } : {}),
    };
  }
  return { code: 'unavailable', message: 'Something went wrong in the extension; try again.' };
}
