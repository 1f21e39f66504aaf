import type { BridgeResult } from '../../src/contracts/bridge-contract.ts';
import type { PlatformClient } from '../../src/platform/client.ts';
import { voteAndConfirm } from '../../src/platform/vote.ts';
import type { BridgeMessage, SessionView } from '../shared/messages.ts';
import type { FanSession } from './fan-session.ts';
import {
  parseBridgePayload,
  parseHistoryQuery,
  parsePollRef,
  parseProposalDecision,
  parseProposalId,
  parseSiteOriginPayload,
  parseUserPollsQuery,
  parseVote,
} from './payloads.ts';
import { withFanPlatform } from './platform-access.ts';
import { noPayload, type Routes } from './router.ts';
import type { SenderInfo } from './sender.ts';
import type { SiteConnections } from './site-connections.ts';
import type { VoteProposals } from './vote-proposals.ts';

export type FanPlatform = Pick<
  PlatformClient,
  'listUserPolls' | 'listUserPollHistory' | 'getUserPoll' | 'vote' | 'getCurrentUser'
>;

export interface BackgroundDependencies {
  readonly session: FanSession;
  readonly connections: SiteConnections;
  readonly proposals: VoteProposals;
  /** The page bridge's requests (`page-requests.ts`). */
  readonly pageRequest: (message: BridgeMessage, sender: SenderInfo) => Promise<BridgeResult>;
  readonly signIn: () => Promise<void>;
  readonly platform: () => Promise<FanPlatform>;
}

/** Every named handler of the background. Pages of the extension get the fan's views; content scripts the bridge. */
export function backgroundRoutes(deps: BackgroundDependencies): Routes {
  const callPlatform = <T>(call: (platform: FanPlatform) => Promise<T>): Promise<T> =>
    withFanPlatform(deps.platform, call);

  // The session's id stays in the background: pages see whether the fan is signed in, and as whom.
  const view = ({ signedIn, userId }: SessionView): SessionView =>
    signedIn ? { signedIn, ...(userId ? { userId } : {}) } : { signedIn: false };
  const sessionView = async (): Promise<SessionView> => {
    const status = await deps.session.status();
    if (!status.signedIn || status.userId) return view(status);
    try {
      const { userId } = await callPlatform((platform) => platform.getCurrentUser());
      await deps.session.rememberUserId(userId);
      return { signedIn: true, userId };
    } catch {
      return view(await deps.session.status());
    }
  };

  return {
    'session-status': { allow: 'extension-page', parse: noPayload, handle: sessionView },
    'sign-in': {
      allow: 'extension-page',
      parse: noPayload,
      handle: async () => {
        if (!(await deps.session.status()).signedIn) await deps.signIn();
        return sessionView();
      },
    },
    'sign-out': {
      allow: 'extension-page',
      parse: noPayload,
      handle: async () => {
        await deps.session.signOut();
        return { signedIn: false };
      },
    },
    'user-polls': {
      allow: 'extension-page',
      parse: parseUserPollsQuery,
      // `userVoted=false` lists the same as `true` on the platform: the filter is sent only when set. With ids, the
      // limit fits them all (a list answer is paged).
      handle: ({ userVoted, ids }) =>
        callPlatform((platform) =>
          platform.listUserPolls({
            ...(userVoted ? { userVoted } : {}),
            ...(ids ? { ids, limit: ids.length } : {}),
          }),
        ),
    },
    'poll-history': {
      allow: 'extension-page',
      parse: parseHistoryQuery,
      handle: (query) => callPlatform((platform) => platform.listUserPollHistory(query)),
    },
    'user-poll': {
      allow: 'extension-page',
      parse: parsePollRef,
      handle: ({ pollId }) => callPlatform((platform) => platform.getUserPoll(pollId)),
    },
    vote: {
      allow: 'extension-page',
      parse: parseVote,
      handle: async ({ pollId, answerId }) => {
        // Never retried: a lost answer is settled by the re-read, and the fan's poll shows what the platform recorded.
        const outcome = await callPlatform((platform) => voteAndConfirm(platform, pollId, answerId));
        if (outcome.status === 'confirmed') return outcome.poll;
        return callPlatform((platform) => platform.getUserPoll(pollId));
      },
    },
    sites: { allow: 'extension-page', parse: noPayload, handle: () => deps.connections.list() },
    'connect-site': {
      allow: 'extension-page',
      parse: parseSiteOriginPayload,
      handle: ({ origin }) => deps.connections.connect(origin),
    },
    'disconnect-site': {
      allow: 'extension-page',
      parse: parseSiteOriginPayload,
      handle: ({ origin }) => deps.connections.disconnect(origin),
    },
    'proposal-details': {
      allow: 'extension-page',
      parse: parseProposalId,
      handle: ({ proposalId }) => Promise.resolve(deps.proposals.details(proposalId)),
    },
    'proposal-decision': {
      allow: 'extension-page',
      parse: parseProposalDecision,
      handle: ({ proposalId, answerId }) => deps.proposals.decide(proposalId, answerId),
    },
    bridge: { allow: 'content-script', parse: parseBridgePayload, handle: deps.pageRequest },
  };
}
