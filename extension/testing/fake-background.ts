// A background that answers the popup's messages from a table, through the real `BackgroundClient`, for unit tests.
import { BackgroundClient } from '../shared/background-client.ts';
import type { SerializedError } from '../shared/extension-error.ts';
import type { MessageMap, MessageType } from '../shared/messages.ts';

type Answer<K extends MessageType> = (
  payload: MessageMap[K]['payload'],
) => MessageMap[K]['result'] | { readonly refuse: SerializedError };

export type Answers = { [K in MessageType]?: Answer<K> };

/** Every message asked, in order; an unanswered type fails as the background would (`invalid_request`). */
export function fakeBackground(answers: Answers) {
  const asked: { type: MessageType; payload: unknown }[] = [];
  const client = new BackgroundClient((message) => {
    const { type, payload } = message as { type: MessageType; payload: never };
    asked.push({ type, payload });
    const answer = answers[type] as Answer<MessageType> | undefined;
    if (!answer) return Promise.resolve({ ok: false, error: { code: 'invalid_request', message: type } });
    const result = answer(payload);
    return Promise.resolve(
      typeof result === 'object' && result !== null && 'refuse' in result
        ? { ok: false, error: result.refuse }
        : { ok: true, result: structuredClone(result) },
    );
  });
  return { client, asked };
}
