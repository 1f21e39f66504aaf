import { safeDefine } from './base/safe-define.ts';
import { FanPollList } from './fan-poll-list/fan-poll-list.ts';
import { FanPoll } from './fan-poll/fan-poll.ts';

/** Registers both tags; a no-op when this or another copy of the widget already did. */
export function defineTags(): void {
  safeDefine('fan-poll', FanPoll);
  safeDefine('fan-poll-list', FanPollList);
}
