export { FanPollReadyEvent, type FanPollReadyDetail } from './fan-poll-ready-event.ts';
export { FanPollVoteEvent, type FanPollVoteDetail } from './fan-poll-vote-event.ts';
export { FanPollVotedEvent, type FanPollVotedDetail } from './fan-poll-voted-event.ts';
export { FanPollSignInEvent, type FanPollSignInDetail } from './fan-poll-sign-in-event.ts';
export { FanPollErrorEvent, type FanPollErrorDetail } from './fan-poll-error-event.ts';
export {
  FanPollCurrentChangedEvent,
  type FanPollCurrentChangedDetail,
} from './fan-poll-current-changed-event.ts';
export { FanPollNextEvent, type FanPollNextDetail } from './fan-poll-next-event.ts';
export { FanPollShareEvent, type FanPollShareDetail } from './fan-poll-share-event.ts';

export { cardEventNames, type CardEventName } from './card-event-names.ts';
