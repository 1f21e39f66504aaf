// The club's analytics for the browser tests: the sandbox and a proxy with the analytics token set (no simulated fans,
// so every count is the test's own), and the proxy's report as the club reads it.
import { analyticsPaths, type AnalyticsReport } from '../../src/contracts/analytics-contract.ts';
import type { SandboxAndProxy } from '../support/stack.ts';
import { startStackAllowing } from './widget-stack.ts';

export const analyticsToken = 'canary-analytics-dashboard-token';
/** Today (UTC), the day every count of a test falls on. */
export const today = new Date().toISOString().slice(0, 10);

/** Loopback pages are allowed on the sandbox preset: the partner's pages of these tests are such. */
export function startAnalyticsStack(): Promise<SandboxAndProxy> {
  return startStackAllowing('https://www.club.example', {
    simulate: false,
    env: { FAN_POLLS_ANALYTICS_TOKEN: analyticsToken },
  });
}

/** `GET analytics.json?<query>` with the token. */
export async function analyticsReport(proxyUrl: string, query: string): Promise<AnalyticsReport> {
  const answer = await fetch(`${proxyUrl}${analyticsPaths.analyticsJson}?${query}`, {
    headers: { Authorization: `Bearer ${analyticsToken}` },
  });
  return (await answer.json()) as AnalyticsReport;
}
