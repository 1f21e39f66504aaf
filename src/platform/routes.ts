/**
 * The one route table of the platform's resource API. Paths are the spec's templates with the version segment as
 * `<version>`; versions are configuration (config.ts). The sandbox does not derive its paths from this table: tests
 * pin the spec's literal strings on both sides.
 */
import type { ApiVersions } from './config.ts';
import { PlatformError } from './errors.ts';
import type { TokenKind } from './types.ts';

export type ApiName = keyof ApiVersions;
export type HttpMethod = 'GET' | 'POST';

export interface RouteDefinition {
  readonly api: ApiName;
  readonly method: HttpMethod;
  /** Relative to `{base_url}`, e.g. `/polls/<version>/poll/{pollId}`. */
  readonly path: string;
  readonly tokenKind: TokenKind;
  /** Documented as deprecated (announced for removal); the routes still work. */
  readonly deprecated: boolean;
}

export const routes = {
  listPolls: {
    api: 'polls',
    method: 'GET',
    path: '/polls/<version>/polls',
    tokenKind: 'application',
    deprecated: false,
  },
  getPoll: {
    api: 'polls',
    method: 'GET',
    path: '/polls/<version>/poll/{pollId}',
    tokenKind: 'application',
    deprecated: false,
  },
  getUserPoll: {
    api: 'polls',
    method: 'GET',
    path: '/polls/<version>/user/poll/{pollId}',
    tokenKind: 'user',
    deprecated: true,
  },
  listUserPolls: {
    api: 'polls',
    method: 'GET',
    path: '/polls/<version>/user/polls',
    tokenKind: 'user',
    deprecated: true,
  },
  listUserPollHistory: {
    api: 'polls',
    method: 'GET',
    path: '/polls/<version>/user/polls/history',
    tokenKind: 'user',
    deprecated: true,
  },
  vote: {
    api: 'polls',
    method: 'POST',
    path: '/polls/<version>/user/poll/{pollId}/vote',
    tokenKind: 'user',
    deprecated: true,
  },
  getCurrentUser: {
    api: 'user',
    method: 'GET',
    path: '/user/<version>/user/me',
    tokenKind: 'user',
    deprecated: false,
  },
  listSurveys: {
    api: 'survey',
    method: 'GET',
    path: '/survey/<version>/survey/surveys',
    tokenKind: 'application',
    deprecated: false,
  },
} as const satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof routes;

/**
 * Operations the platform decommissioned (first quarter of 2025), as the spec lists them, without their API and
 * version prefix. Data only: the client has no way to call a path not in `routes`. Two of them (`GET /polls`,
 * `POST /user/poll/{pollId}/vote`) are also current, deprecated operations of polls 1.0.8 and stay callable there,
 * as in the sandbox; `alsoCurrent` marks them.
 */
export const decommissionedOperations: readonly {
  readonly method: HttpMethod;
  readonly path: string;
  readonly alternative: boolean;
  readonly alsoCurrent?: true;
}[] = [
  { method: 'GET', path: '/polls', alternative: true, alsoCurrent: true },
  { method: 'GET', path: '/user/poll/{pollId}/vote', alternative: true },
  { method: 'POST', path: '/user/polls', alternative: false },
  { method: 'POST', path: '/user/poll/{pollId}', alternative: false },
  { method: 'POST', path: '/user/poll/{pollId}/vote', alternative: false, alsoCurrent: true },
  { method: 'POST', path: '/user/polls/history', alternative: false },
  { method: 'GET', path: '/user/nfts', alternative: true },
  { method: 'GET', path: '/nft/{id}', alternative: true },
  { method: 'POST', path: '/admin/nft/smart-contract', alternative: false },
  { method: 'POST', path: '/admin/nft/collectible-definition', alternative: false },
  { method: 'POST', path: '/admin/nft/{collectibleId}/asset-upload', alternative: false },
  { method: 'POST', path: '/admin/nft/{collectibleDefinition}/mint', alternative: false },
  { method: 'GET', path: '/user/wallet', alternative: true },
  { method: 'GET', path: '/user/wallet/{transactionId}', alternative: true },
  { method: 'GET', path: '/user/wallet/transaction-history/fan-token', alternative: true },
  { method: 'POST', path: '/admin/wallet/transfer/fan-token', alternative: true },
  { method: 'POST', path: '/wallet/sign-message', alternative: false },
];

/** Fills a route's template: the configured version and the URL-encoded path parameters. */
export function routePath(
  route: RouteDefinition,
  versions: ApiVersions,
  parameters: Readonly<Record<string, string>> = {},
): string {
  return route.path
    .replace('<version>', encodeURIComponent(versions[route.api]))
    .replace(/\{(\w+)\}/g, (_match, name: string) => {
      const value = parameters[name];
      if (value === undefined) throw new PlatformError('invalid_input', `Missing path parameter ${name}`);
      return encodeURIComponent(value);
    });
}
