import type { CardEventName } from '../events/card-event-names.ts';

/** The card's events as the React components' `on...` props (also what the reference lists). */
export const cardEventProps = {
  onReady: 'fan-poll-ready',
  onVote: 'fan-poll-vote',
  onVoted: 'fan-poll-voted',
  onSignIn: 'fan-poll-sign-in',
  onError: 'fan-poll-error',
  onCurrentChanged: 'fan-poll-current-changed',
  onNext: 'fan-poll-next',
  onShare: 'fan-poll-share',
} as const satisfies Record<string, CardEventName>;
