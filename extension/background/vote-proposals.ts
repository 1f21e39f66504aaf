import { ExtensionError } from '../shared/extension-error.ts';
import type { VoteProposal } from '../shared/messages.ts';

/** Opens and closes the confirmation window: `windows.create` in the extension, a fake in tests. */
export interface ConfirmationWindows {
  open(url: string): Promise<number | undefined>;
  close(windowId: number): Promise<void>;
}

/** Who made a proposal, where and until when: it holds only while all of this still does. */
export interface ProposalBinding {
  /** The fan's session when the page proposed (`FanSession` status `sessionId`). */
  readonly sessionId: string;
  /** The exact origin of the page that proposed. */
  readonly site: string;
  /** The tab that proposed. */
  readonly tabId: number;
  /** Epoch ms when the poll closes, when it does. */
  readonly closesAt?: number;
}

export interface VoteProposalsDependencies {
  readonly windows: ConfirmationWindows;
  readonly pageUrl: (proposalId: string) => string;
  /** Casts the vote the fan confirmed; never called for anything else. */
  readonly cast: (pollId: string, answerId: string) => Promise<void>;
  /** A proposal nobody decides ends as cancelled after this long (below the card's own wait). */
  readonly expiresAfterMs: number;
  /** Whether the binding still holds now: the same session, the site still heard, the tab still on that page. */
  readonly stillHolds: (binding: ProposalBinding) => Promise<boolean>;
  readonly now?: () => number;
}

interface Pending {
  readonly pollId: string;
  readonly proposal: VoteProposal;
  readonly binding: ProposalBinding;
  windowId?: number;
  deciding: boolean;
  readonly expiry: ReturnType<typeof setTimeout>;
  readonly settle: (outcome: { answerId: string } | { error: unknown }) => void;
}

const ended = (): ExtensionError => new ExtensionError('invalid_request', 'This vote request has ended.');
const cancelled = (): ExtensionError =>
  new ExtensionError('vote_cancelled', 'The vote was not confirmed in Fan Polls; nothing was sent.');

/**
 * Per-vote confirmation, as wallets confirm each transaction: a page's vote is only a proposal. The extension opens its
 * own window (confirm.html), which no page can script, frame or cover, shows what the platform says about the poll,
 * and casts exactly the answer the fan confirms there, or nothing. One proposal at a time, across all tabs.
 *
 * A proposal belongs to one session, one site and one tab until the poll closes: sign-out or another account, the site
 * disconnected, the tab closed or navigated, and the poll's close each end it at once (window closed, the page told
 * `vote_cancelled`), and `decide` checks the binding again before anything is cast.
 */
export class VoteProposals {
  readonly #pending = new Map<string, Pending>();

  constructor(private readonly deps: VoteProposalsDependencies) {}

  /** Resolves with the answer the fan confirmed once the platform took it; rejects `vote_cancelled` otherwise. */
  async propose(pollId: string, proposal: VoteProposal, binding: ProposalBinding): Promise<string> {
    if (this.#pending.size > 0) {
      throw new ExtensionError('rate_limited', 'Another vote is waiting for your confirmation in Fan Polls.');
    }
    const proposalId = crypto.randomUUID();
    let settle: Pending['settle'] = () => undefined;
    const outcome = new Promise<{ answerId: string } | { error: unknown }>((resolve) => {
      settle = resolve;
    });
    const untilClose =
      binding.closesAt === undefined ? Infinity : binding.closesAt - (this.deps.now ?? Date.now)();
    const expiry = setTimeout(
      () => {
        this.#end(proposalId, { error: cancelled() });
      },
      Math.max(0, Math.min(this.deps.expiresAfterMs, untilClose)),
    );
    this.#pending.set(proposalId, { pollId, proposal, binding, deciding: false, expiry, settle });
    try {
      const windowId = await this.deps.windows.open(this.deps.pageUrl(proposalId));
      const pending = this.#pending.get(proposalId);
      if (pending && windowId !== undefined) pending.windowId = windowId;
      // Ended while the window was opening: it closes now.
      if (!pending && windowId !== undefined) void this.deps.windows.close(windowId).catch(() => undefined);
    } catch (cause) {
      this.#end(proposalId, {
        error: new ExtensionError('unavailable', 'The confirmation window could not be opened.', { cause }),
      });
    }
    const result = await outcome;
    if ('error' in result) throw result.error;
    return result.answerId;
  }

  /** What the confirmation window shows; only the extension's own pages may ask. */
  details(proposalId: string): VoteProposal {
    const pending = this.#pending.get(proposalId);
    if (!pending) throw ended();
    return pending.proposal;
  }

  /** The fan's decision: `null` cancels; an answer of the poll is cast, once, if the binding still holds. */
  async decide(proposalId: string, answerId: string | null): Promise<{ answerId: string } | null> {
    const pending = this.#pending.get(proposalId);
    if (!pending || pending.deciding) throw ended();
    if (answerId === null) {
      this.#end(proposalId, { error: cancelled() });
      return null;
    }
    if (!pending.proposal.answers.some((answer) => answer.id === answerId)) {
      throw new ExtensionError('invalid_request', 'That is not an answer of this poll.');
    }
    pending.deciding = true;
    const { closesAt } = pending.binding;
    const open = closesAt === undefined || (this.deps.now ?? Date.now)() < closesAt;
    if (!open || !(await this.deps.stillHolds(pending.binding).catch(() => false))) {
      this.#end(proposalId, { error: cancelled() });
      throw ended();
    }
    try {
      await this.deps.cast(pending.pollId, answerId);
    } catch (error) {
      this.#end(proposalId, { error }, { keepWindow: true });
      throw error;
    }
    this.#end(proposalId, { answerId });
    return { answerId };
  }

  /** The fan closed the window without deciding: that is a no (unless the vote is already being cast). */
  windowClosed(windowId: number): void {
    this.#endWhere((pending) => pending.windowId === windowId);
  }

  /** The session ended or changed (sign-out, sign-in, another account): every open proposal ends. */
  endAll(): void {
    this.#endWhere(() => true);
  }

  /** A site was disconnected (`undefined`: every site). */
  endForSite(site: string | undefined): void {
    this.#endWhere((pending) => site === undefined || pending.binding.site === site);
  }

  /** The tab was closed or navigated. */
  endForTab(tabId: number): void {
    this.#endWhere((pending) => pending.binding.tabId === tabId);
  }

  /** Ends matching proposals that are not being cast already (a cast in flight is the fan's confirmed vote). */
  #endWhere(test: (pending: Pending) => boolean): void {
    for (const [proposalId, pending] of this.#pending) {
      if (test(pending) && !pending.deciding) this.#end(proposalId, { error: cancelled() });
    }
  }

  #end(
    proposalId: string,
    outcome: { answerId: string } | { error: unknown },
    { keepWindow = false }: { keepWindow?: boolean } = {},
  ): void {
    const pending = this.#pending.get(proposalId);
    if (!pending) return;
    this.#pending.delete(proposalId);
    clearTimeout(pending.expiry);
    pending.settle(outcome);
    if (!keepWindow && pending.windowId !== undefined) {
      void this.deps.windows.close(pending.windowId).catch(() => undefined);
    }
  }
}
