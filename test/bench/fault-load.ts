// The load of the fault bench: signed-in fans reading their routes in a closed loop, anonymous readers reading public
// polls, and a balancer's `/readyz` probe, each for a fixed time against real proxy instances; what every request got
// and how long it took.
import { csrfHeaderName, csrfHeaderValue } from '../../src/contracts/proxy-contract.ts';

export interface LoadFan {
  /** The proxy instance this fan's requests go to. */
  readonly proxyUrl: string;
  readonly cookie: string;
}

export interface LoadReader {
  readonly proxyUrl: string;
  /** Distinct per reader (`X-Forwarded-For`), as readers behind a balancer are. */
  readonly address: string;
  /** Public paths read in turn. */
  readonly paths: readonly string[];
}

export interface LoadSample {
  readonly who: 'fan' | 'reader' | 'probe';
  /** 0 when no answer came (a network error, or no answer within 20 s). */
  readonly status: number;
  readonly ms: number;
}

export interface LoadPlan {
  readonly seconds: number;
  readonly pageOrigin: string;
  readonly fans: readonly LoadFan[];
  readonly readers: readonly LoadReader[];
  /** Instances whose `/readyz` a balancer probes once a second. */
  readonly probed: readonly string[];
  /** Think time between a fan's requests, and between a reader's. */
  readonly fanPauseMs?: number;
  readonly readerPauseMs?: number;
}

const fanPaths = ['/api/user/me', '/api/user/polls?limit=10'];

/** Runs the plan's fans, readers and probes until its time is up; every answer's status and time. */
export async function driveLoad(plan: LoadPlan): Promise<LoadSample[]> {
  const samples: LoadSample[] = [];
  const endAt = performance.now() + plan.seconds * 1000;
  const loop = async (
    who: LoadSample['who'],
    pauseMs: number,
    request: (turn: number) => [url: string, headers: Record<string, string>],
  ) => {
    for (let turn = 0; performance.now() < endAt; turn += 1) {
      const [url, headers] = request(turn);
      samples.push({ who, ...(await timedStatus(url, headers)) });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  await Promise.all([
    ...plan.fans.map((fan) =>
      loop('fan', plan.fanPauseMs ?? 250, (turn) => [
        `${fan.proxyUrl}${fanPaths[turn % fanPaths.length] ?? ''}`,
        fanHeaders(fan, plan.pageOrigin),
      ]),
    ),
    ...plan.readers.map((reader) =>
      loop('reader', plan.readerPauseMs ?? 100, (turn) => [
        `${reader.proxyUrl}${reader.paths[turn % reader.paths.length] ?? ''}`,
        { Origin: plan.pageOrigin, 'X-Forwarded-For': reader.address },
      ]),
    ),
    ...plan.probed.map((proxyUrl) => loop('probe', 1000, () => [`${proxyUrl}/readyz`, {}])),
  ]);
  return samples;
}

/** What the widget sends on a fan's route: the page's origin, the session cookie, the CSRF header. */
export function fanHeaders(fan: LoadFan, pageOrigin: string): Record<string, string> {
  return { Origin: pageOrigin, Cookie: fan.cookie, [csrfHeaderName]: csrfHeaderValue };
}

/** One request's status (0 without an answer within 20 s) and how long it took. */
export async function timedStatus(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; ms: number }> {
  const startedAt = performance.now();
  try {
    const answer = await fetch(url, { headers, signal: AbortSignal.timeout(20_000) });
    await answer.arrayBuffer();
    return { status: answer.status, ms: performance.now() - startedAt };
  } catch {
    return { status: 0, ms: performance.now() - startedAt };
  }
}

/** `200 ×120, 503 ×8`: how many answers of each status, most frequent first. */
export function statusCounts(samples: readonly LoadSample[]): string {
  const counts = new Map<number, number>();
  for (const { status } of samples) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([status, count]) => `${status === 0 ? 'none' : String(status)} ×${String(count)}`)
    .join(', ');
}

/** The `fraction` quantile of the samples' times (nearest rank), in whole ms. */
export function latencyQuantile(samples: readonly LoadSample[], fraction: number): number {
  const sorted = samples.map(({ ms }) => ms).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Math.round(sorted[rank] ?? 0);
}
