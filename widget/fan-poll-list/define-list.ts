import { safeDefine } from '../base/safe-define.ts';
import { FanPollList } from './fan-poll-list.ts';

/** Registers `<fan-poll-list>`: its element and its body are one lazily imported chunk, which a card never needs. */
export function defineList(): void {
  safeDefine('fan-poll-list', FanPollList);
}
