/**
 * The page bridge between a card on a web page and the Fan Polls extension's content script, over
 * `window.postMessage`. The content script runs only on sites the fan connected from the extension's popup. What a
 * page may ask is this short, closed list; answers never carry a token. Both sides validate every message's shape
 * (and the content script its origin) before acting on it.
 *
 * A page never votes: `vote` only proposes one. The extension opens its own confirmation window, and casts exactly
 * the answer the fan confirmed there (which may differ from the proposal) or nothing.
 */

import type { VoteRefusalReason } from './proxy-contract.ts';
import type { TrackingParameters } from './tracking.ts';

export const bridgeSource = { page: 'fan-polls-page', extension: 'fan-polls-extension' } as const;
/** 2: `connect` removed (sites are connected from the popup), `vote` became a proposal confirmed by the fan. */
export const bridgeProtocolVersion = 2;

/** The five tracking parameters (`tracking.ts` owns their names and rule). */
export type { TrackingParameters };

export type BridgeRequest =
  /** Handshake: the page asks whether the extension is there. */
  | { readonly type: 'hello' }
  /** Signed in or not. */
  | { readonly type: 'status' }
  /** Opens the extension's sign-in window; only right after a real click in the page. */
  | { readonly type: 'sign-in'; readonly tracking: TrackingParameters }
  /** The fan's view of a poll: `userVote` and each answer's `voteStatus`. Budgeted per tab and per site. */
  | { readonly type: 'poll-view'; readonly pollId: string }
  /** Proposes a vote; only right after a real click in the page. The fan confirms it in an extension window. */
  | { readonly type: 'vote'; readonly pollId: string; readonly answerId: string };

export interface BridgeRequestEnvelope {
  readonly source: typeof bridgeSource.page;
  readonly version: typeof bridgeProtocolVersion;
  /** Chosen by the page, echoed in the answer. */
  readonly requestId: string;
  readonly request: BridgeRequest;
}

export interface BridgeStatus {
  readonly signedIn: boolean;
}

/** The fan's own view of one poll, without any token. */
export interface BridgePollView {
  readonly pollId: string;
  readonly userVote: boolean;
  readonly answers: readonly { readonly id: string; readonly voteStatus?: string }[];
}

export type BridgeResult =
  | { readonly type: 'hello'; readonly version: number }
  | { readonly type: 'status'; readonly status: BridgeStatus }
  | { readonly type: 'sign-in'; readonly status: BridgeStatus }
  | { readonly type: 'poll-view'; readonly view: BridgePollView }
  /** The vote the fan confirmed and the platform recorded: `answerId` is the confirmed answer, not the proposal. */
  | { readonly type: 'vote'; readonly accepted: true; readonly answerId: string };

export interface BridgeResponseEnvelope {
  readonly source: typeof bridgeSource.extension;
  readonly version: typeof bridgeProtocolVersion;
  readonly requestId: string;
  readonly outcome:
    | { readonly ok: true; readonly result: BridgeResult }
    | {
        readonly ok: false;
        readonly error: {
          readonly code: string;
          readonly message: string;
          /** With `code: 'refused'` for a vote, when the platform said why (see `voteRefusalReasons`). */
          readonly reason?: VoteRefusalReason;
        };
      };
}
