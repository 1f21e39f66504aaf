import { Hono } from 'hono';
import type { FetchLike } from '../../platform/http.ts';
import { ProxyError } from '../errors.ts';
import type { ProxyRuntime } from '../runtime.ts';
import { bearerRefusal } from './bearer-token.ts';
import type { ProxyMetrics } from './metrics.ts';

/** How long a readiness answer is reused: probes every second must not become platform traffic. */
const readinessCacheMs = 5000;

/**
 * Operations routes. `/healthz`: the process answers (restart it when not). `/readyz`: the instance can serve, its
 * shared state (Redis, when configured) answers (take it out of the load balancer when not). The platform's token
 * endpoint is reported beside it (`platform`) but does not make the instance unready: every instance sees the same
 * platform, and one that still serves cached reads and coded 503s is better than none. `/metrics`: Prometheus text, only with `Authorization: Bearer <FAN_POLLS_METRICS_TOKEN>`; 404 without the
 * setting, so that nothing about it is public.
 */
export function opsRoutes(runtime: ProxyRuntime, metrics: ProxyMetrics, fetch: FetchLike): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.get('/healthz', (c) => c.json({ ok: true }));

  // The platform's answer is reused; the state's is asked each time (within Redis's deadline, at once while it is
  // known unusable), so a stalled Redis turns /readyz 503 within seconds.
  let platform: { checkedAt: number; reachable: Promise<boolean> } | undefined;
  app.get('/readyz', async (c) => {
    const now = runtime.now();
    if (platform === undefined || now - platform.checkedAt >= readinessCacheMs) {
      platform = { checkedAt: now, reachable: tokenEndpointAnswers(runtime, fetch) };
    }
    const answer = await checkReadiness(runtime, platform.reachable);
    return c.json(answer, answer.ok ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    const token = runtime.config.metricsToken;
    if (token === undefined || metrics.render === undefined)
      throw new ProxyError('not_found', 'No such route.');
    const refused = await bearerRefusal(c, token, 'The metrics need their bearer token.');
    if (refused) return refused;
    const { contentType, body } = await metrics.render();
    c.header('Content-Type', contentType);
    return c.body(body);
  });
  return app;
}

interface Readiness {
  readonly ok: boolean;
  readonly state: 'memory' | 'ready' | 'unavailable';
  readonly platform: 'reachable' | 'unreachable';
  /** What an operator should fix that does not stop this instance (Redis without persistence); absent when none. */
  readonly warnings?: readonly string[];
  /** What makes this instance unready, named for the operator (`redis: unreachable`); absent when ready. */
  readonly failed?: readonly string[];
}

async function checkReadiness(runtime: ProxyRuntime, reachable: Promise<boolean>): Promise<Readiness> {
  const [state, platformReachable] = await Promise.all([runtime.state.readiness(), reachable]);
  return {
    ok: state.ready,
    state: runtime.state.kind === 'memory' ? 'memory' : state.ready ? 'ready' : 'unavailable',
    platform: platformReachable ? 'reachable' : 'unreachable',
    ...(state.warnings.length === 0 ? {} : { warnings: state.warnings }),
    ...(state.ready ? {} : { failed: [`${runtime.state.kind}: unreachable`] }),
  };
}

/** Any HTTP answer under 500 from the token endpoint (a GET is refused there) proves the platform is reachable. */
async function tokenEndpointAnswers(runtime: ProxyRuntime, fetch: FetchLike): Promise<boolean> {
  try {
    const response = await fetch(`${runtime.config.platformAuthUrl}/oauth2/token`, {
      method: 'GET',
      signal: AbortSignal.timeout(2000),
      redirect: 'manual',
    });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}
