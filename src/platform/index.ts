/** The platform contract in one import: types, errors, routes, configuration, parsing, query, OAuth, client. */
export * from './types.ts';
export * from './errors.ts';
export * from './config.ts';
export * from './routes.ts';
export * from './parse.ts';
export * from './query.ts';
export * from './oauth.ts';
export * from './client.ts';
export * from './token-keeper.ts';
export * from './vote.ts';
export * from './retry-after.ts';
export type { FetchLike } from './http.ts';
