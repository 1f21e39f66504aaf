// What the platform recorded, read from the sandbox as the fan: the outcome a vote test asserts on.
import type { Poll } from '../../src/platform/types.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';

/** The ids of the answers `fan` has a vote on in `pollId` (a `voteStatus`, whatever it is), as the platform says. */
export async function recordedAnswerIds(sandbox: Sandbox, pollId: string, fan: string): Promise<string[]> {
  const answer = await apiRequest(sandbox, `/polls/1.0.8/user/poll/${pollId}`, fanToken(sandbox, fan));
  const answers = ((await answer.json()) as { data: Poll }).data.answers;
  return answers.filter((each) => typeof each.voteStatus === 'string').map((each) => each.id);
}
