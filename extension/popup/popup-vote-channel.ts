import { extensionErrorCode } from '../../widget/voting/extension-error-code.ts';
import { fanViewOf } from '../../widget/voting/read-fan-view.ts';
import type { VoteChannel } from '../../widget/voting/vote-channel.ts';
import { WidgetError } from '../../widget/voting/widget-error.ts';
import type { BackgroundClient } from '../shared/background-client.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { RecentUserPolls } from './recent-user-polls.ts';

/**
 * The `<fan-poll>` cards' vote channel inside the popup: the background holds the fan's tokens, so every read and
 * vote is a message to it (no page bridge and no confirmation window: the popup is the extension's own UI, so the fan's click in it is
 * the confirmation). Failures
 * become the card's `WidgetError` codes exactly as over the bridge (`refused` + `reason`, `signed_out`, ...). A fan view
 * the popup's store has just read (`recent`) is used instead of reading it again.
 */
export function popupVoteChannel(client: BackgroundClient, recent?: RecentUserPolls): VoteChannel {
  async function ask<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ExtensionError))
        throw new WidgetError('vote-failed', 'The extension did not answer.', { cause: error });
      throw new WidgetError(extensionErrorCode(error.code, error.reason), error.message, { cause: error });
    }
  }
  return {
    via: 'extension',
    isSignedIn: () => ask(async () => (await client.ask('session-status', undefined)).signedIn),
    // The popup's own header signs in; a card asking (its session ended meanwhile) goes through the same background.
    signIn: () => ask(async () => (await client.ask('sign-in', undefined)).signedIn),
    fanView: (pollId) =>
      ask(async () => fanViewOf(recent?.take(pollId) ?? (await client.ask('user-poll', { pollId })))),
    vote: (pollId, answerId) =>
      ask(async () => {
        recent?.forget(pollId);
        // The background votes once (never retried) and reads the fan's poll again; the card re-reads it too.
        await client.ask('vote', { pollId, answerId });
        return answerId;
      }),
  };
}
