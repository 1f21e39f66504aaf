import { isRecord } from '../../src/contracts/is-record.ts';
import type { FanPollView } from './vote-channel.ts';

/**
 * The fan's view out of a user-context poll (the proxy's `data`, or a poll the extension read): whether they voted
 * and each answer's `voteStatus`, rebuilt field by field. Anything unreadable counts as not voted.
 */
export function fanViewOf(poll: unknown): FanPollView {
  const fields = isRecord(poll) ? poll : {};
  const answers = Array.isArray(fields.answers) ? fields.answers.filter(isRecord) : [];
  return {
    userVote: fields.userVote === true,
    answers: answers.flatMap((answer) =>
      typeof answer.id === 'string'
        ? [
            typeof answer.voteStatus === 'string'
              ? { id: answer.id, voteStatus: answer.voteStatus }
              : { id: answer.id },
          ]
        : [],
    ),
  };
}
