import type { FetchLike } from '../../platform/http.ts';
import type { ProxyMetrics } from './metrics.ts';

const uuidSegment = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi;

/** The platform fetch, counted by operation (the path with ids as `:id`) and outcome (status class, 429, failure). */
export function countedFetch(fetch: FetchLike, metrics: ProxyMetrics): FetchLike {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const operation = `${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname.replace(uuidSegment, '/:id')}`;
    try {
      const response = await fetch(input, init);
      metrics.upstream(operation, response.status === 429 ? '429' : `${Math.floor(response.status / 100)}xx`);
      return response;
    } catch (error) {
      metrics.upstream(
        operation,
        error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network',
      );
      throw error;
    }
  };
}
