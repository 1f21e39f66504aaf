/**
 * `fan-polls`: the elements' classes, their events and types, and `defineFanPolls()`. Importing it defines nothing
 * (`fan-polls/define` does); the iframe banner's element comes from the proxy (`loadFanPollFrame`).
 */
export { FanPoll, type ResultsSetting } from '../fan-poll/fan-poll.ts';
export { FanPollList, type ListPollIds } from '../fan-poll-list/fan-poll-list.ts';
export {
  FanPollErrorEvent,
  FanPollReadyEvent,
  FanPollSignInEvent,
  FanPollVoteEvent,
  FanPollVotedEvent,
  cardEventNames,
  type CardEventName,
  type FanPollErrorDetail,
  type FanPollReadyDetail,
  type FanPollSignInDetail,
  type FanPollVoteDetail,
  type FanPollVotedDetail,
} from '../events/card-events.ts';
export type { FanPollEventDetail } from '../events/event-detail.ts';
export type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
export {
  trackingParameterNames as trackingKeys,
  type TrackingParameterName as TrackingKey,
} from '../../src/contracts/tracking.ts';
export { fanPollErrorCodes, type FanPollErrorCode } from './error-codes.ts';
export type {
  FanPollAttributes,
  FanPollFrameAttributes,
  FanPollListAttributes,
  TrackingAttributes,
} from './element-attributes.ts';
export { defineFanPolls, type FanPollsOptions } from './define-fan-polls.ts';
export { fanPollFrameUrl, loadFanPollFrame, type FanPollFrameElement } from './fan-poll-frame.ts';
export { widgetVersion as version } from '../base/widget-version.ts';
