/** `fan-polls/fan-poll-list`: the list's class, nothing defined; each of its cards is a `<fan-poll>`. */
export { FanPollList, type ListPollIds } from '../fan-poll-list/fan-poll-list.ts';
export { FanPollErrorEvent, type FanPollErrorDetail } from '../events/fan-poll-error-event.ts';
