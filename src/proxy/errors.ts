import type { VoteRefusalReason } from '../contracts/proxy-contract.ts';

/**
 * The proxy's one error type. `code` is stable (it is what the widget and the extension branch on) and becomes the
 * `ProxyErrorBody` of the answer; `message` is for people and never carries a token, the secret or a platform body.
 */
export const proxyErrorCodes = {
  bad_request: 400,
  invalid_filter: 400,
  invalid_body: 400,
  body_too_large: 413,
  origin_not_allowed: 403,
  csrf_header_missing: 403,
  not_signed_in: 401,
  not_found: 404,
  /** No drawn card for this request (`drawn-card.ts`): the page's script reads the poll instead, as any card does. */
  card_not_drawn: 404,
  /** No share image here (a runtime without its renderer, or a drawing that failed): the share page names none. */
  share_image_not_drawn: 404,
  /** oEmbed in a format this proxy does not answer (`format=xml`): oEmbed 1.0 says 501. */
  oembed_format_not_implemented: 501,
  rate_limited: 429,
  extension_not_allowed: 403,
  invalid_redirect_uri: 400,
  invalid_grant: 400,
  invalid_handoff: 400,
  /** The analytics report's query (`analytics-report.ts`): a date not `YYYY-MM-DD`, `to` before `from`, too long a range, an unknown group. */
  invalid_date: 400,
  reversed_range: 400,
  range_too_long: 400,
  unknown_group: 400,
  vote_refused: 409,
  /** The vote may have reached the platform, and the re-read of the fan's poll could not tell. */
  vote_uncertain: 502,
  /** The vote certainly did not reach the platform (held, throttled, no token, no connection): try again. */
  vote_not_sent: 503,
  upstream_throttled: 503,
  state_unavailable: 503,
  /** A live poll stream is refused (a cap, or no fan-out on this backend): the page reads the polls instead. */
  streams_full: 503,
  upstream_unavailable: 502,
  internal_error: 500,
} as const satisfies Record<string, number>;

export type ProxyErrorCode = keyof typeof proxyErrorCodes;

export class ProxyError extends Error {
  override readonly name = 'ProxyError';
  readonly code: ProxyErrorCode;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;
  /** With `vote_refused`: why, when the platform said. */
  readonly reason: VoteRefusalReason | undefined;

  constructor(
    code: ProxyErrorCode,
    message: string,
    options: { cause?: unknown; retryAfterSeconds?: number; reason?: VoteRefusalReason } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = proxyErrorCodes[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.reason = options.reason;
  }
}
