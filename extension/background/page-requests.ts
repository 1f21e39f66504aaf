import type {
  BridgePollView,
  BridgeResult,
  TrackingParameters,
} from '../../src/contracts/bridge-contract.ts';
import { bridgeProtocolVersion } from '../../src/contracts/bridge-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { pollTimeline } from '../../src/polls/poll-phase.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { BridgeMessage, VoteProposal } from '../shared/messages.ts';
import type { BudgetDraw, BudgetRule, Budgets } from './budgets.ts';
import type { FanSession } from './fan-session.ts';
import type { SenderInfo } from './sender.ts';
import type { SiteConnections } from './site-connections.ts';
import type { VoteProposals } from './vote-proposals.ts';

/** What pages can make the extension do, per tab and per top-level site. */
export const pageBudgetRules = {
  /** Sign-in and confirmation windows (each also needs a fresh click, and one confirmation waits at a time). */
  'windows per tab': { max: 10, windowMs: 10 * 60_000 },
  'windows per site': { max: 20, windowMs: 10 * 60_000 },
  /** Platform calls with the fan's token: every frame of a tab draws from one budget. */
  'platform calls per tab': { max: 60, windowMs: 60_000 },
  /** Reads of the fan's vote a site may make. */
  'vote reads per site': { max: 120, windowMs: 60 * 60_000 },
} as const satisfies Record<string, BudgetRule>;

export type PageBudgetRule = keyof typeof pageBudgetRules;

export interface PageRequestDependencies {
  readonly session: Pick<FanSession, 'status'>;
  readonly connections: Pick<SiteConnections, 'isHeard' | 'record' | 'site' | 'addClubs'>;
  readonly budgets: Pick<Budgets<PageBudgetRule>, 'take'>;
  readonly proposals: Pick<VoteProposals, 'propose'>;
  readonly signIn: (tracking: TrackingParameters) => Promise<void>;
  /** The fan's poll, read with the fan's token (errors already as the extension reports them). */
  readonly readUserPoll: (pollId: string) => Promise<Poll>;
  /** The fan's polls with these ids (to learn the clubs of the polls a site displayed when it was connected). */
  readonly readUserPolls: (pollIds: readonly string[]) => Promise<Poll[]>;
  readonly now: () => number;
}

const notHeard = (): ExtensionError => new ExtensionError('forbidden', 'This frame is not heard.');

const otherClub = (): ExtensionError =>
  new ExtensionError(
    'refused',
    'This site may only ask about the polls of the clubs it showed when you connected it.',
  );

/**
 * What a page on a connected site may ask, judged here where no page reaches: the frame must be the tab's top-level
 * page, that exact origin connected and its permission still granted (so a frame is judged by the site in the address
 * bar, and a site that frames a connected page gets nothing); windows open only with the fan's fresh click and within
 * the tab's and site's budget; platform calls are budgeted per tab; the fan's vote is read, and a vote proposed, only
 * in polls of the clubs the site displayed when the fan connected it; a vote is only a proposal the fan confirms in
 * the extension's window, bound to the session, the site and the tab that made it.
 */
export function pageRequestHandler(deps: PageRequestDependencies) {
  const requireSignedIn = async (): Promise<void> => {
    if (!(await deps.session.status()).signedIn) {
      throw new ExtensionError('signed_out', 'Sign in with the Fan Polls extension first.');
    }
  };

  const requireFreshClick = (message: BridgeMessage): void => {
    if (!message.userActivated) {
      throw new ExtensionError(
        'user_activation_required',
        'Fan Polls opens a window only when you click on the page.',
      );
    }
  };

  const draw = async (refusal: string, ...draws: BudgetDraw<PageBudgetRule>[]): Promise<void> => {
    if (!(await deps.budgets.take(...draws))) throw new ExtensionError('rate_limited', refusal);
  };

  const status = async () => ({ signedIn: (await deps.session.status()).signedIn });

  /** The clubs a site may ask about; the polls it displayed at connect time are resolved once, on first need. */
  const clubsOf = async (site: string): Promise<readonly string[]> => {
    const connected = await deps.connections.site(site);
    const clubs = connected?.clubs ?? [];
    const shown = connected?.shownPollIds ?? [];
    if (shown.length === 0) return clubs;
    const resolved = (await deps.readUserPolls(shown)).map((poll) => poll.partnerId);
    const updated = await deps.connections.addClubs(site, resolved);
    return updated.find((each) => each.origin === site)?.clubs ?? clubs;
  };

  /** The fan's poll, only when the site may show it: checked before anything about the fan's vote is used. */
  const readShownPoll = async (site: string, pollId: string): Promise<Poll> => {
    const poll = await deps.readUserPoll(pollId);
    if (!(await clubsOf(site)).includes(poll.partnerId)) throw otherClub();
    return poll;
  };

  return async (message: BridgeMessage, sender: SenderInfo): Promise<BridgeResult> => {
    if (sender.kind !== 'content-script') throw notHeard();
    const site = sender.frameOrigin;
    if (sender.topOrigin !== site || !(await deps.connections.isHeard(site))) throw notHeard();
    const tab = String(sender.tabId);
    const { request } = message;
    switch (request.type) {
      case 'hello':
        return { type: 'hello', version: bridgeProtocolVersion };
      case 'status':
        return { type: 'status', status: await status() };
      case 'sign-in': {
        if (!(await deps.session.status()).signedIn) {
          requireFreshClick(message);
          await draw(
            'Too many Fan Polls windows from this page; try again later.',
            ['windows per tab', tab],
            ['windows per site', site],
          );
          await deps.signIn(request.tracking);
        }
        return { type: 'sign-in', status: await status() };
      }
      case 'poll-view': {
        await requireSignedIn();
        await draw(
          'Too many reads of your votes from this page; try again later.',
          ['platform calls per tab', tab],
          ['vote reads per site', site],
        );
        const poll = await readShownPoll(site, request.pollId);
        await deps.connections.record(site, 'reads');
        return { type: 'poll-view', view: pollView(poll) };
      }
      case 'vote': {
        const { sessionId } = await deps.session.status();
        if (sessionId === undefined) {
          throw new ExtensionError('signed_out', 'Sign in with the Fan Polls extension first.');
        }
        requireFreshClick(message);
        await draw('Too many requests from this page; try again later.', ['platform calls per tab', tab]);
        const poll = await readShownPoll(site, request.pollId);
        const proposal = proposalFor(poll, site, request.answerId, deps.now());
        await draw(
          'Too many Fan Polls windows from this page; try again later.',
          ['windows per tab', tab],
          ['windows per site', site],
        );
        await deps.connections.record(site, 'proposals');
        const closesAt = poll.closeAt === undefined ? undefined : Date.parse(poll.closeAt);
        const answerId = await deps.proposals.propose(poll.id, proposal, {
          sessionId,
          site,
          tabId: sender.tabId,
          ...(closesAt === undefined || Number.isNaN(closesAt) ? {} : { closesAt }),
        });
        await deps.connections.record(site, 'votes');
        return { type: 'vote', accepted: true, answerId };
      }
    }
  };
}

/** The confirmation window's content, from the platform's poll; refuses at once what the platform would refuse. */
function proposalFor(poll: Poll, site: string, answerId: string, now: number): VoteProposal {
  if (poll.userVote === true) {
    throw new ExtensionError('refused', 'You already voted in this poll.', { reason: 'already_voted' });
  }
  if (pollTimeline(poll, now).phase !== 'open') {
    throw new ExtensionError('refused', 'This poll is not open for votes.', { reason: 'poll_not_open' });
  }
  if (!poll.answers.some((answer) => answer.id === answerId)) {
    throw new ExtensionError('refused', 'That answer is not in this poll.', { reason: 'unknown_answer' });
  }
  return {
    site,
    partnerName: poll.partnerName,
    question: poll.question,
    answers: poll.answers.map((answer) => ({ id: answer.id, text: answer.answer })),
    proposedAnswerId: answerId,
    binding: poll.isBound,
    tokenLimit: poll.tokenLimit,
    ...(poll.closeAt === undefined ? {} : { closeAt: poll.closeAt }),
  };
}

/** The fan's view of a poll for a page: whether they voted and each answer's status. Built field by field. */
function pollView(poll: Poll): BridgePollView {
  return {
    pollId: poll.id,
    userVote: poll.userVote === true,
    answers: poll.answers.map((answer) =>
      answer.voteStatus === undefined ? { id: answer.id } : { id: answer.id, voteStatus: answer.voteStatus },
    ),
  };
}
