import { ExtensionError } from '../shared/extension-error.ts';
import type { ApprovedSites } from './approved-sites.ts';
import type { PromptLimiter } from './prompt-limiter.ts';

/** Opens and closes the approval window: `windows.create` in the extension, a fake in tests. */
export interface ApprovalWindows {
  open(url: string): Promise<number | undefined>;
  close(windowId: number): Promise<void>;
}

interface PendingApproval {
  readonly origin: string;
  windowId?: number;
  readonly decided: Promise<boolean>;
  readonly resolve: (approved: boolean) => void;
}

/**
 * "Connect this site", as wallet extensions do: a site may ask for votes only after the fan approved its exact origin
 * in an extension window (approve.html). One window at a time (across sites); prompts are rate-limited per site.
 */
export class SiteApprovals {
  readonly #pending = new Map<string, PendingApproval>();

  constructor(
    private readonly sites: ApprovedSites,
    private readonly windows: ApprovalWindows,
    private readonly limiter: PromptLimiter,
    private readonly approvalPageUrl: (approvalId: string) => string,
    private readonly now: () => number,
  ) {}

  /** Resolves true when the site is (now) approved. */
  async request(origin: string): Promise<boolean> {
    if (await this.sites.isApproved(origin)) return true;
    const existing = [...this.#pending.values()].find((pending) => pending.origin === origin);
    if (existing) return existing.decided;
    // One approval window at a time, whatever the site: a page could otherwise frame many origins, each with its own
    // per-site budget, and open a window for every one.
    if (this.#pending.size > 0) {
      throw new ExtensionError('rate_limited', 'Another site is waiting for your approval; try again later.');
    }
    if (!this.limiter.tryTake(`approve ${origin}`)) {
      throw new ExtensionError('rate_limited', 'Too many approval requests from this site; try again later.');
    }
    const approvalId = crypto.randomUUID();
    let resolve: (approved: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((done) => {
      resolve = done;
    });
    const pending: PendingApproval = { origin, decided, resolve };
    this.#pending.set(approvalId, pending);
    try {
      const windowId = await this.windows.open(this.approvalPageUrl(approvalId));
      if (windowId !== undefined) pending.windowId = windowId;
    } catch (cause) {
      this.#pending.delete(approvalId);
      throw new ExtensionError('unavailable', 'The approval window could not be opened.', { cause });
    }
    return decided;
  }

  /** The origin the approval window asks about; only the extension's own pages may ask. */
  details(approvalId: string): { origin: string } {
    const pending = this.#pending.get(approvalId);
    if (!pending) throw new ExtensionError('invalid_request', 'This approval request has ended.');
    return { origin: pending.origin };
  }

  async decide(approvalId: string, approve: boolean): Promise<void> {
    const pending = this.#pending.get(approvalId);
    if (!pending) throw new ExtensionError('invalid_request', 'This approval request has ended.');
    this.#pending.delete(approvalId);
    if (approve) await this.sites.approve(pending.origin, this.now());
    pending.resolve(approve);
    if (pending.windowId !== undefined) await this.windows.close(pending.windowId).catch(() => undefined);
  }

  /** The fan closed the window without deciding: that is a no. */
  windowClosed(windowId: number): void {
    for (const [approvalId, pending] of this.#pending) {
      if (pending.windowId !== windowId) continue;
      this.#pending.delete(approvalId);
      pending.resolve(false);
    }
  }
}
