/** `fan-polls/fan-poll`: the card's class and its events, nothing defined (`customElements.define` is yours). */
export { FanPoll, type ResultsSetting } from '../fan-poll/fan-poll.ts';
export * from '../events/card-events.ts';
