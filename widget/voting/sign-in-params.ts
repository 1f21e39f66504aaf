import { signInPollParam } from '../../src/contracts/analytics-contract.ts';
import { appendTracking, type TrackingParameters } from '../../src/contracts/tracking.ts';

/**
 * What a card's sign-in carries to the proxy beside the sign-in's own parameters, from the pop-up and without one
 * alike: the card's poll, which the proxy counts the sign-in for, then its tracking parameters, which go on to the
 * platform's authorize request and into the club's analytics.
 */
export function appendCardOfSignIn(
  params: URLSearchParams,
  tracking: TrackingParameters,
  pollId: string | undefined,
): URLSearchParams {
  if (pollId !== undefined) params.set(signInPollParam, pollId);
  return appendTracking(params, tracking);
}
