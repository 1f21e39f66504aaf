import type { BridgeRequest, BridgeResult } from '../../src/contracts/bridge-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { SerializedError } from './extension-error.ts';

export interface SessionView {
  readonly signedIn: boolean;
  readonly userId?: string;
}

export interface ApprovedSite {
  readonly origin: string;
  /** Epoch ms of the fan's approval. */
  readonly approvedAt: number;
}

/** The fan's polls: only those they voted in, and/or only these ids (the popup's cards read their polls so). */
export interface UserPollsQuery {
  readonly userVoted: boolean;
  /** At most `maxUserPollIds` uuids. */
  readonly ids?: readonly string[];
}

/** Most ids in one `user-polls` read (the live store's batch size). */
export const maxUserPollIds = 50;

export interface HistoryQuery {
  readonly search?: string;
  readonly page: number;
  readonly limit: number;
}

/**
 * Every message the background answers: its payload and its result. The `bridge` message comes from content scripts
 * only; all the others from the extension's own pages only (the router checks each sender).
 */
export interface MessageMap {
  'session-status': { payload: undefined; result: SessionView };
  'sign-in': { payload: undefined; result: SessionView };
  'sign-out': { payload: undefined; result: SessionView };
  'user-polls': { payload: UserPollsQuery; result: Poll[] };
  'poll-history': { payload: HistoryQuery; result: Poll[] };
  'user-poll': { payload: { readonly pollId: string }; result: Poll };
  vote: { payload: { readonly pollId: string; readonly answerId: string }; result: Poll };
  sites: { payload: undefined; result: ApprovedSite[] };
  'revoke-site': { payload: { readonly origin: string }; result: ApprovedSite[] };
  'approval-details': { payload: { readonly approvalId: string }; result: { readonly origin: string } };
  'approval-decision': { payload: { readonly approvalId: string; readonly approve: boolean }; result: null };
  bridge: { payload: BridgeRequest; result: BridgeResult };
}

export type MessageType = keyof MessageMap;

export interface ExtensionMessage<K extends MessageType = MessageType> {
  readonly type: K;
  readonly payload: MessageMap[K]['payload'];
}

export type MessageReply<K extends MessageType = MessageType> =
  | { readonly ok: true; readonly result: MessageMap[K]['result'] }
  | { readonly ok: false; readonly error: SerializedError };
