/**
 * The one client for the partner proxy, used by every widget and extension call to it: the base URL, credentials,
 * the CSRF header, a timeout, and one error mapping (the proxy's `ProxyErrorBody`, or its absence, becomes a
 * `ProxyClientError`). `fetch` is injected, so tests drive the real client against the proxy in-process.
 */
import { deadline } from '../platform/deadline.ts';
import { isRecord } from './is-record.ts';
import { csrfHeaderName, csrfHeaderValue } from './proxy-contract.ts';

export type ProxyFetch = (input: string, init: RequestInit) => Promise<Response>;

/** No answer: the network, CORS, or the timeout (then `cause` is a `TimeoutError`). */
export const proxyUnreachable = 'proxy_unreachable';
/** An answer the proxy did not word: an error status without its error body, or a body that is not JSON. */
export const proxyUnexpectedAnswer = 'proxy_unexpected_answer';

/** A failed proxy call. `code` is the proxy's own `error.code`, or `proxyUnreachable` / `proxyUnexpectedAnswer`. */
export interface ProxyClientErrorDetails {
  /** Undefined when there was no answer. */
  readonly status?: number;
  /**
   * With `code: 'vote_refused'`, when the platform said why: the proxy's `reason` as sent, a `VoteRefusalReason`
   * from a proxy of this version. Not checked here (the widget's entry carries no list of reasons): a reader treats
   * one it does not know as a plain refusal, as `widget/voting/refusal-code.ts` does.
   */
  readonly reason?: string;
  /** From a `Retry-After` header in seconds, else the body's `retryAfterSeconds`. */
  readonly retryAfterSeconds?: number;
  readonly cause?: unknown;
}

/** A failed proxy call. `code` is the proxy's own `error.code`, or `proxyUnreachable` / `proxyUnexpectedAnswer`. */
export class ProxyClientError extends Error {
  override readonly name = 'ProxyClientError';
  readonly status: number | undefined;
  readonly reason: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly code: string,
    message: string,
    details: ProxyClientErrorDetails = {},
  ) {
    super(message, { cause: details.cause });
    this.status = details.status;
    this.reason = details.reason;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export interface ProxyCall {
  readonly method?: 'GET' | 'POST';
  /** Sent as JSON. */
  readonly body?: unknown;
  /** `include` (default): the fan's session cookie, with the CSRF header. `omit`: public reads and the extension. */
  readonly credentials?: 'include' | 'omit';
}

export interface ProxyClient {
  /** The proxy's URL for a route path (`proxyRoutes`), no trailing slash before it. */
  url(path: string): string;
  /** The JSON body of a 2xx answer (undefined when empty); a `ProxyClientError` for anything else. */
  call(path: string, call?: ProxyCall): Promise<unknown>;
}

export function proxyClient(
  proxyUrl: string,
  fetch: ProxyFetch = (input, init) => globalThis.fetch(input, init),
  timeoutMs = 10_000,
): ProxyClient {
  const base = proxyUrl.replace(/\/+$/, '');
  const url = (path: string) => base + path;

  function send(
    path: string,
    { method = 'GET', body, credentials = 'include' }: ProxyCall = {},
    signal?: AbortSignal,
  ) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (credentials === 'include') headers[csrfHeaderName] = csrfHeaderValue;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(url(path), {
      method,
      headers,
      credentials,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: signal ?? deadline(timeoutMs).signal,
    });
  }

  return {
    url,
    async call(path, call) {
      const limit = deadline(timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await send(path, call, limit.signal);
        text = await response.text();
      } catch (cause) {
        throw new ProxyClientError(proxyUnreachable, 'The partner proxy could not be reached.', { cause });
      } finally {
        limit.clear();
      }
      let body: unknown;
      try {
        body = text.trim() === '' ? undefined : JSON.parse(text);
      } catch (cause) {
        throw new ProxyClientError(
          proxyUnexpectedAnswer,
          `The partner proxy answered ${response.status} without JSON.`,
          { status: response.status, cause },
        );
      }
      if (response.ok) return body;
      throw errorFromAnswer(response, body);
    },
  };
}

/** The proxy's `ProxyErrorBody` as a `ProxyClientError`; an answer without one as `proxyUnexpectedAnswer`. */
function errorFromAnswer(response: Response, body: unknown): ProxyClientError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === 'string' && /^[\w.-]{1,64}$/.test(error.code) ? error.code : undefined;
  const header = response.headers.get('retry-after') ?? '';
  return new ProxyClientError(
    code ?? proxyUnexpectedAnswer,
    `The partner proxy answered ${response.status}${code ? ` (${code})` : ''}.`,
    {
      status: response.status,
      reason: typeof error.reason === 'string' ? error.reason : undefined,
      retryAfterSeconds: /^\d+$/.test(header)
        ? Number(header)
        : typeof error.retryAfterSeconds === 'number'
          ? error.retryAfterSeconds
          : undefined,
    },
  );
}
