import type { BridgeRequest, BridgeResult } from '../../src/contracts/bridge-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { SerializedError } from './extension-error.ts';

export interface SessionView {
  readonly signedIn: boolean;
  readonly userId?: string;
}

/** What a connected site did through the extension, shown in the popup. */
export interface SiteActivity {
  /** Reads of the fan's vote in a poll. */
  readonly reads: number;
  /** Votes it proposed (each opened a confirmation window). */
  readonly proposals: number;
  /** Proposals the fan confirmed and the platform took. */
  readonly votes: number;
}

/** A site (an exact origin) the fan connected from the popup: the only kind of page the extension talks to. */
export interface ConnectedSite {
  readonly origin: string;
  /** Epoch ms of the connection. */
  readonly connectedAt: number;
  readonly activity: SiteActivity;
  /**
   * The clubs (partner ids) whose polls the site may ask about: those of the polls it displayed when the fan connected
   * it. `shownPollIds` are those polls, kept until they are resolved to clubs with the fan's token.
   */
  readonly clubs?: readonly string[];
  readonly shownPollIds?: readonly string[];
}

/** What a page displayed when the fan connected its site: card poll ids and list partner ids. */
export interface DisplayedPolls {
  readonly pollIds: readonly string[];
  readonly partnerIds: readonly string[];
}

/** A vote a page proposed, as the confirmation window shows it: everything comes from the platform, not the page. */
export interface VoteProposal {
  /** The top-level site the card is on. */
  readonly site: string;
  readonly partnerName: string;
  readonly question: string;
  readonly answers: readonly { readonly id: string; readonly text: string }[];
  /** The answer the page proposed; the fan may pick another. */
  readonly proposedAnswerId: string;
  /** Whether the result binds the club (`isBound`). */
  readonly binding: boolean;
  /** Most fan tokens one fan's vote can weigh (`tokenLimit`); the platform does not give the fan's own balance. */
  readonly tokenLimit: number;
  readonly closeAt?: string;
}

/** A bridge request as the content script forwards it: with whether the fan just clicked in that frame. */
export interface BridgeMessage {
  readonly request: BridgeRequest;
  /** Set by the content script from trusted input; the page cannot set it. */
  readonly userActivated: boolean;
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
  sites: { payload: undefined; result: ConnectedSite[] };
  /** After the popup obtained the origin's host permission in the fan's click: registers the page bridge there. */
  'connect-site': { payload: { readonly origin: string }; result: ConnectedSite[] };
  'disconnect-site': { payload: { readonly origin: string }; result: ConnectedSite[] };
  'proposal-details': { payload: { readonly proposalId: string }; result: VoteProposal };
  /** The fan's decision in the confirmation window: the answer to cast, or `null` to cancel. */
  'proposal-decision': {
    payload: { readonly proposalId: string; readonly answerId: string | null };
    result: { readonly answerId: string } | null;
  };
  bridge: { payload: BridgeMessage; result: BridgeResult };
}

export type MessageType = keyof MessageMap;

export interface ExtensionMessage<K extends MessageType = MessageType> {
  readonly type: K;
  readonly payload: MessageMap[K]['payload'];
}

export type MessageReply<K extends MessageType = MessageType> =
  | { readonly ok: true; readonly result: MessageMap[K]['result'] }
  | { readonly ok: false; readonly error: SerializedError };
