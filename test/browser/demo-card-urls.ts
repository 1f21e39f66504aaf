// The demo page's first card (`public/demo/index.html`) as its sign-in and vote leave the page: the exact URLs, with
// the card's poll and tracking parameters where the proxy counts them in the club's analytics.
import { proxyRoutes } from '../../src/contracts/proxy-contract.ts';

/** The demo card's tracking parameters, in the spec's order. */
export const demoCardTrackingQuery =
  'referrer=matchday-live&campaign=spring-derby&param1=website&param2=match-page&param3=script';

/** The exact URL of the demo card's vote in `pollId` through the proxy at `proxyUrl`. */
export const demoCardVoteUrl = (proxyUrl: string, pollId: string): string =>
  `${proxyUrl}${proxyRoutes.vote(pollId)}?${demoCardTrackingQuery}`;

/**
 * The exact URL of the demo card's sign-in from its poll `pollId`: the sign-in's own parameters (`way`: the page's
 * origin, then `handoff=1` from the pop-up or the `return` address without one), the poll, the tracking parameters.
 */
export const demoCardSignInUrl = (proxyUrl: string, pollId: string, way: Record<string, string>): string =>
  `${proxyUrl}${proxyRoutes.signIn}?${new URLSearchParams({ ...way, poll: pollId }).toString()}&${demoCardTrackingQuery}`;
