import type {
  BridgePollView,
  BridgeRequest,
  BridgeResult,
  BridgeStatus,
  TrackingParameters,
} from '../../src/contracts/bridge-contract.ts';
import { bridgeProtocolVersion } from '../../src/contracts/bridge-contract.ts';
import type { PlatformClient } from '../../src/platform/client.ts';
import type { Poll } from '../../src/platform/types.ts';
import { voteAndConfirm } from '../../src/platform/vote.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { SessionView } from '../shared/messages.ts';
import type { ApprovedSites } from './approved-sites.ts';
import type { FanSession } from './fan-session.ts';
import {
  parseApprovalDecision,
  parseApprovalId,
  parseBridgePayload,
  parseHistoryQuery,
  parsePollRef,
  parseSiteOrigin,
  parseUserPollsQuery,
  parseVote,
} from './payloads.ts';
import { extensionErrorFrom } from './platform-access.ts';
import type { PromptLimiter } from './prompt-limiter.ts';
import { noPayload, type Routes } from './router.ts';
import type { SenderInfo } from './sender.ts';
import type { SiteApprovals } from './site-approvals.ts';

export type FanPlatform = Pick<
  PlatformClient,
  'listUserPolls' | 'listUserPollHistory' | 'getUserPoll' | 'vote' | 'getCurrentUser'
>;

export interface BackgroundDependencies {
  readonly session: FanSession;
  readonly sites: ApprovedSites;
  readonly approvals: SiteApprovals;
  readonly signInLimiter: PromptLimiter;
  readonly signIn: (tracking: TrackingParameters) => Promise<void>;
  readonly platform: () => Promise<FanPlatform>;
}

/** Every named handler of the background. Pages of the extension get the fan's views; content scripts the bridge. */
export function backgroundRoutes(deps: BackgroundDependencies): Routes {
  const callPlatform = async <T>(call: (platform: FanPlatform) => Promise<T>): Promise<T> => {
    try {
      return await call(await deps.platform());
    } catch (error) {
      throw extensionErrorFrom(error);
    }
  };

  const sessionView = async (): Promise<SessionView> => {
    const status = await deps.session.status();
    if (!status.signedIn || status.userId) return status;
    try {
      const { userId } = await callPlatform((platform) => platform.getCurrentUser());
      await deps.session.rememberUserId(userId);
      return { signedIn: true, userId };
    } catch {
      return deps.session.status();
    }
  };

  const bridgeStatus = async (siteOrigin: string): Promise<BridgeStatus> => ({
    signedIn: (await deps.session.status()).signedIn,
    siteApproved: await deps.sites.isApproved(siteOrigin),
  });

  const requireApprovedAndSignedIn = async (siteOrigin: string): Promise<void> => {
    if (!(await deps.sites.isApproved(siteOrigin))) {
      throw new ExtensionError('site_not_approved', 'Approve this site in the Fan Polls extension first.');
    }
    if (!(await deps.session.status()).signedIn) {
      throw new ExtensionError('signed_out', 'Sign in with the Fan Polls extension first.');
    }
  };

  const handleBridge = async (request: BridgeRequest, sender: SenderInfo): Promise<BridgeResult> => {
    if (sender.kind !== 'content-script')
      throw new ExtensionError('forbidden', 'Bridge messages come from pages.');
    const site = sender.siteOrigin;
    switch (request.type) {
      case 'hello':
        return { type: 'hello', version: bridgeProtocolVersion };
      case 'status':
        return { type: 'status', status: await bridgeStatus(site) };
      case 'sign-in': {
        if (!(await deps.session.status()).signedIn) {
          if (!deps.signInLimiter.tryTake(`sign-in ${site}`)) {
            throw new ExtensionError(
              'rate_limited',
              'Too many sign-in requests from this site; try again later.',
            );
          }
          await deps.signIn(request.tracking);
        }
        return { type: 'sign-in', status: await bridgeStatus(site) };
      }
      case 'connect':
        await deps.approvals.request(site);
        return { type: 'connect', status: await bridgeStatus(site) };
      case 'poll-view': {
        await requireApprovedAndSignedIn(site);
        const poll = await callPlatform((platform) => platform.getUserPoll(request.pollId));
        return { type: 'poll-view', view: pollView(poll) };
      }
      case 'vote':
        await requireApprovedAndSignedIn(site);
        // A lost answer is settled by re-reading the fan's poll, never by voting again.
        await callPlatform((platform) => voteAndConfirm(platform, request.pollId, request.answerId));
        return { type: 'vote', accepted: true };
    }
  };

  return {
    'session-status': { allow: 'extension-page', parse: noPayload, handle: sessionView },
    'sign-in': {
      allow: 'extension-page',
      parse: noPayload,
      handle: async () => {
        if (!(await deps.session.status()).signedIn) await deps.signIn({});
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
    sites: { allow: 'extension-page', parse: noPayload, handle: () => deps.sites.list() },
    'revoke-site': {
      allow: 'extension-page',
      parse: parseSiteOrigin,
      handle: ({ origin }) => deps.sites.revoke(origin),
    },
    'approval-details': {
      allow: 'extension-page',
      parse: parseApprovalId,
      handle: ({ approvalId }) => Promise.resolve(deps.approvals.details(approvalId)),
    },
    'approval-decision': {
      allow: 'extension-page',
      parse: parseApprovalDecision,
      handle: async ({ approvalId, approve }) => {
        await deps.approvals.decide(approvalId, approve);
        return null;
      },
    },
    bridge: { allow: 'content-script', parse: parseBridgePayload, handle: handleBridge },
  };
}

/** The fan's view of a poll for a page: whether they voted and each answer's status. Built field by field. */
export function pollView(poll: Poll): BridgePollView {
  return {
    pollId: poll.id,
    userVote: poll.userVote === true,
    answers: poll.answers.map((answer) =>
      answer.voteStatus === undefined ? { id: answer.id } : { id: answer.id, voteStatus: answer.voteStatus },
    ),
  };
}
