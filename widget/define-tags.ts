import { safeDefine } from './base/safe-define.ts';
import { FanPoll } from './fan-poll/fan-poll.ts';

/**
 * Registers both tags; a no-op when this or another copy of the widget already did. `<fan-poll>` at once; the list's
 * element and body come in one chunk imported here, and the lists already in the page upgrade when it arrives.
 */
export async function defineTags(): Promise<void> {
  safeDefine('fan-poll', FanPoll);
  try {
    (await import('./fan-poll-list/define-list.ts')).defineList();
  } catch (error) {
    console.error('Fan Polls: <fan-poll-list> could not load.', error);
  }
}
