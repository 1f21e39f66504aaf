/** The names of every card event, for the iframe bridge (which forwards exactly these). */
export const cardEventNames = [
  'fan-poll-ready',
  'fan-poll-vote',
  'fan-poll-voted',
  'fan-poll-sign-in',
  'fan-poll-error',
  'fan-poll-current-changed',
  'fan-poll-next',
  'fan-poll-share',
] as const;
export type CardEventName = (typeof cardEventNames)[number];
