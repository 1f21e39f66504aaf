import { describe, expect, it } from 'vitest';
import { metricsBatchSize, prometheusMetrics } from './prometheus-metrics.ts';

/** A sample's value in the Prometheus text: `name{labels} value`. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((each) => each.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('prometheusMetrics, per-request figures handed over in batches', () => {
  it('shows every request and cache outcome answered before a scrape, across a batch boundary', async () => {
    const metrics = prometheusMetrics(() => Promise.resolve(undefined));
    const route = '/api/polls/:pollId';
    const count = metricsBatchSize + 7;
    let sum = 0;
    for (let index = 0; index < count; index += 1) {
      const seconds = (index % 40) / 1000;
      sum += seconds;
      metrics.request(route, 'GET', index % 5 === 0 ? 304 : 200, seconds);
      metrics.cache(index % 3 === 0 ? 'stale' : 'hit');
    }
    const render = async () => (await metrics.render?.())?.body ?? '';
    const text = await render();
    const ok = Math.floor((count * 4) / 5);
    expect(sample(text, `fan_polls_http_requests_total{route="${route}",method="GET",status="200"}`)).toBe(
      ok,
    );
    expect(sample(text, `fan_polls_http_requests_total{route="${route}",method="GET",status="304"}`)).toBe(
      count - ok,
    );
    expect(sample(text, `fan_polls_http_request_duration_seconds_count{route="${route}",method="GET"}`)).toBe(
      count,
    );
    expect(
      sample(text, `fan_polls_http_request_duration_seconds_sum{route="${route}",method="GET"}`),
    ).toBeCloseTo(sum, 6);
    expect(
      sample(
        text,
        `fan_polls_http_request_duration_seconds_bucket{le="0.005",route="${route}",method="GET"}`,
      ),
    ).toBe(
      Array.from({ length: count }, (_, index) => (index % 40) / 1000).filter((seconds) => seconds <= 0.005)
        .length,
    );
    expect(sample(text, 'fan_polls_poll_cache_total{outcome="stale"}')).toBe(Math.ceil(count / 3));

    // Later requests join the same series at the next scrape, nothing counted twice.
    metrics.request(route, 'GET', 200, 0.002);
    metrics.cache('hit');
    const again = await render();
    expect(sample(again, `fan_polls_http_requests_total{route="${route}",method="GET",status="200"}`)).toBe(
      ok + 1,
    );
    expect(
      sample(again, `fan_polls_http_request_duration_seconds_count{route="${route}",method="GET"}`),
    ).toBe(count + 1);
    expect(sample(again, 'fan_polls_poll_cache_total{outcome="hit"}')).toBe(count - Math.ceil(count / 3) + 1);
  });
});
