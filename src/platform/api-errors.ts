/**
 * Maps a failed answer of the resource API (the WSO2 gateway or the backend behind it) to a PlatformError.
 */
import { PlatformError, type PlatformErrorCode } from './errors.ts';
import { isRecord } from '../contracts/is-record.ts';
import { parseGatewayError } from './parse.ts';
import { retryAtFrom } from './retry-after.ts';

const invalidTokenCodes = new Set(['900901', '900903']);

export interface ApiErrorContext {
  /** The client's name of the operation, for the message (`getPoll`). */
  readonly operation: string;
  /** A vote's refusals are `vote_refused`. */
  readonly isVote?: boolean;
  readonly now: number;
}

export function errorFromApiResponse(
  response: Response,
  body: unknown,
  context: ApiErrorContext,
): PlatformError {
  const status = response.status;
  const gateway = parseGatewayError(body);
  const platformCode = gateway?.code;
  const description = gateway?.description ?? gateway?.message;
  const make = (code: PlatformErrorCode, summary: string, retryAt?: Date): PlatformError =>
    new PlatformError(code, `${context.operation}: ${summary}`, {
      status,
      ...(platformCode === undefined ? {} : { platformCode }),
      ...(retryAt === undefined ? {} : { retryAt }),
      cause: body,
    });

  if (status === 401) {
    if (platformCode === '900905')
      return make('wrong_token_kind', 'this route takes the other kind of token');
    if (platformCode === '900902') return make('missing_credentials', 'no credentials reached the platform');
    if (platformCode === undefined || invalidTokenCodes.has(platformCode)) {
      return make('invalid_token', 'the token is invalid or expired');
    }
    return make('invalid_token', `the platform refused the credentials (${platformCode})`);
  }
  const throttledByCode = status === 503 && platformCode !== undefined && /^9008\d\d$/.test(platformCode);
  if (status === 429 || throttledByCode) {
    const retryAt = retryAtFrom(
      response.headers.get('retry-after'),
      isRecord(body) ? body.nextAccessTime : undefined,
      context.now,
    );
    return make('throttled', 'throttled by the platform', retryAt);
  }
  if (status === 403 && (platformCode === '900908' || !context.isVote)) {
    return make('forbidden', 'the application may not use this resource');
  }
  if (status === 405 || (status === 404 && isGatewayStatusReport(body))) {
    return make('removed_operation', 'the platform does not offer this operation');
  }
  if (status >= 400 && status < 500) {
    if (context.isVote) return make('vote_refused', `the platform refused the vote (HTTP ${status})`);
    if (status === 404) return make('not_found', 'not found');
    return make('bad_request', `the platform refused the request (HTTP ${status})${describe(description)}`);
  }
  return make('platform_error', `the platform failed (HTTP ${status})`);
}

/** The gateway's own 404 (`"type": "Status report"`), as opposed to a backend's "Entity not found". */
function isGatewayStatusReport(body: unknown): boolean {
  return isRecord(body) && body.type === 'Status report';
}

function describe(description: string | undefined): string {
  if (description === undefined || description === '') return '';
  // Platform text, shortened; it names fields, never credentials.
  return `: ${description.slice(0, 200)}`;
}
