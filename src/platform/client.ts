/**
 * The typed client of the platform's resource API: every route of the route table, inputs checked before a request
 * leaves, answers parsed tolerantly, every failure a PlatformError, every request under a timeout.
 */
import { deadline } from './deadline.ts';
import { errorFromApiResponse } from './api-errors.ts';
import { defaultApiVersions, defaultTimeoutMs, type ApiVersions } from './config.ts';
import { PlatformError, errorFromFetchFailure } from './errors.ts';
import { globalFetch, readJsonBody, type FetchLike } from './http.ts';
import { parseCurrentUser, parsePoll, parsePollList, parseSurveyList } from './parse.ts';
import {
  checkUuid,
  encodePollFilters,
  queryString,
  type FilterScope,
  type PagingQuery,
  type PollFilters,
  type UserPollFilters,
} from './query.ts';
import { routePath, routes, type RouteDefinition, type RouteName } from './routes.ts';
import type { CurrentUser, Poll, TokenKind } from './types.ts';

/**
 * Where a token comes from. A bare function is enough; an object with `invalidate` (the TokenKeeper) also lets the
 * client get a fresh token and retry once when the platform calls the token invalid.
 */
export type TokenProvider =
  | (() => Promise<string>)
  | {
      token(): Promise<string>;
      /** The platform refused this token: drop it. Resolves true when a fresh token is worth one retry. */
      invalidate(refusedToken: string): Promise<boolean>;
    };

export interface PlatformClientOptions {
  /** `{base_url}`. */
  readonly apiUrl: string;
  readonly versions?: ApiVersions;
  readonly timeoutMs?: number;
  /** Plain http: the sandbox and tests only. */
  readonly allowInsecureRequests?: boolean;
  readonly fetch?: FetchLike;
  /** One provider per token kind; a route whose kind has none fails with `missing_credentials` before sending. */
  readonly tokens: Partial<Record<TokenKind, TokenProvider>>;
  readonly now?: () => number;
}

export interface RequestOptions {
  /** Cancels the request (the timeout applies as well). */
  readonly signal?: AbortSignal;
}

export class PlatformClient {
  readonly #apiUrl: string;
  readonly #versions: ApiVersions;
  readonly #timeoutMs: number;
  readonly #fetch: FetchLike;
  readonly #tokens: Partial<Record<TokenKind, TokenProvider>>;
  readonly #now: () => number;

  constructor(options: PlatformClientOptions) {
    if (!URL.canParse(options.apiUrl)) throw new PlatformError('invalid_input', 'apiUrl is not a URL');
    const protocol = new URL(options.apiUrl).protocol;
    if (protocol !== 'https:' && !(protocol === 'http:' && options.allowInsecureRequests === true)) {
      throw new PlatformError(
        'invalid_input',
        'apiUrl must be https (plain http only with allowInsecureRequests)',
      );
    }
    this.#apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.#versions = options.versions ?? defaultApiVersions;
    this.#timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.#fetch = options.fetch ?? globalFetch;
    this.#tokens = options.tokens;
    this.#now = options.now ?? Date.now;
  }

  /** Public polls (application token). */
  async listPolls(filters: PollFilters = {}, options?: RequestOptions): Promise<Poll[]> {
    const body = await this.#call('listPolls', { query: this.#query(filters, 'polls') }, options);
    return parsePollList(body);
  }

  async getPoll(pollId: string, options?: RequestOptions): Promise<Poll> {
    const body = await this.#call('getPoll', { path: { pollId: checkUuid(pollId, 'pollId') } }, options);
    return parsePoll(body);
  }

  /** Polls with the fan's own vote information (user token). */
  async listUserPolls(filters: UserPollFilters = {}, options?: RequestOptions): Promise<Poll[]> {
    const body = await this.#call('listUserPolls', { query: this.#query(filters, 'userPolls') }, options);
    return parsePollList(body);
  }

  async getUserPoll(pollId: string, options?: RequestOptions): Promise<Poll> {
    const body = await this.#call('getUserPoll', { path: { pollId: checkUuid(pollId, 'pollId') } }, options);
    return parsePoll(body);
  }

  async listUserPollHistory(query: PagingQuery = {}, options?: RequestOptions): Promise<Poll[]> {
    const body = await this.#call('listUserPollHistory', { query: this.#query(query, 'history') }, options);
    return parsePollList(body);
  }

  /**
   * Casts the fan's vote (201, no body). Never retried, not even after a token refresh: a vote whose outcome is in
   * doubt is settled by reading the fan's poll again (see `voteAndConfirm`).
   */
  async vote(pollId: string, answerId: string, options?: RequestOptions): Promise<void> {
    const path = { pollId: checkUuid(pollId, 'pollId') };
    const body = JSON.stringify({ answerId: checkUuid(answerId, 'answerId') });
    await this.#call('vote', { path, body, isVote: true }, options);
  }

  async getCurrentUser(options?: RequestOptions): Promise<CurrentUser> {
    return parseCurrentUser(await this.#call('getCurrentUser', {}, options));
  }

  /** The survey list; its shape is not public, so items come back as sent. */
  async listSurveys(options?: RequestOptions): Promise<Record<string, unknown>[]> {
    return parseSurveyList(await this.#call('listSurveys', {}, options));
  }

  #query(filters: UserPollFilters, scope: FilterScope): string {
    return queryString(encodePollFilters(filters, scope));
  }

  async #call(
    name: RouteName,
    request: {
      readonly path?: Record<string, string>;
      readonly query?: string;
      readonly body?: string;
      readonly isVote?: boolean;
    },
    options: RequestOptions | undefined,
  ): Promise<unknown> {
    const route: RouteDefinition = routes[name];
    const url = `${this.#apiUrl}${routePath(route, this.#versions, request.path)}${request.query ?? ''}`;
    const provider = this.#tokens[route.tokenKind];
    if (!provider) {
      throw new PlatformError(
        'missing_credentials',
        `${name}: no ${route.tokenKind} token provider configured`,
      );
    }
    const token = await tokenFrom(provider);
    try {
      return await this.#send(name, route, url, token, request, options);
    } catch (error) {
      if (
        !(error instanceof PlatformError && error.code === 'invalid_token') ||
        typeof provider === 'function'
      ) {
        throw error;
      }
      // The refused token is dropped either way; one retry with a fresh one, but never for a vote.
      const retry = await provider.invalidate(token);
      if (!retry || request.isVote === true) throw error;
      return this.#send(name, route, url, await provider.token(), request, options);
    }
  }

  async #send(
    name: RouteName,
    route: RouteDefinition,
    url: string,
    token: string,
    request: { readonly body?: string; readonly isVote?: boolean },
    options: RequestOptions | undefined,
  ): Promise<unknown> {
    const limit = deadline(this.#timeoutMs, options?.signal);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let body: unknown;
    try {
      response = await this.#fetch(url, {
        method: route.method,
        headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: 'manual',
        signal: limit.signal,
      });
      body = await readJsonBody(response);
    } catch (error) {
      throw errorFromFetchFailure(error, name);
    } finally {
      limit.clear();
    }
    if (response.status >= 200 && response.status < 300) {
      if (request.isVote === true) return undefined;
      if (body === undefined) {
        throw new PlatformError('malformed_response', `${name}: the answer is not JSON`, {
          status: response.status,
        });
      }
      return body;
    }
    throw errorFromApiResponse(response, body, {
      operation: name,
      isVote: request.isVote === true,
      now: this.#now(),
    });
  }
}

async function tokenFrom(provider: TokenProvider): Promise<string> {
  return typeof provider === 'function' ? provider() : provider.token();
}
