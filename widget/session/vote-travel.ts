/**
 * The fan's votes beyond this document: what this document's cards learnt goes to the other documents of its origin
 * (a BroadcastChannel: other tabs, same-origin frames) and to the page's banners through their bridge (a window
 * event the iframe host loader or the banner page passes on); what arrives from them is heard here, checked for shape,
 * and handed to the cards of that proxy and poll as a hint they confirm (`vote-hint.ts`). In the card's details chunk.
 */
import {
  readVoteHint,
  voteChannelName,
  voteEventHint,
  voteHeardEvent,
  voteKnownEvent,
  type VoteHint,
} from './vote-hint.ts';

type HintListener = (hint: VoteHint) => void;

const listeners = new Map<string, Set<HintListener>>();
const keyOf = (proxy: string, pollId: string): string => `${proxy}\n${pollId}`;
let channel: BroadcastChannel | undefined;
let listening = false;

function hear(hint: VoteHint | undefined): void {
  if (!hint) return;
  for (const listener of [...(listeners.get(keyOf(hint.proxy, hint.pollId)) ?? [])]) listener(hint);
}

function listen(): void {
  if (listening) return;
  listening = true;
  channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(voteChannelName) : undefined;
  channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
    hear(readVoteHint(event.data));
  });
  window.addEventListener(voteHeardEvent, (event) => {
    hear(voteEventHint(event));
  });
}

/** Tells the other documents (other tabs, the page's banners or their host) the fan's vote this document learnt. */
export function tellVote(hint: VoteHint): void {
  listen();
  channel?.postMessage(hint);
  window.dispatchEvent(new CustomEvent(voteKnownEvent, { detail: hint }));
}

/** `listener` hears every vote hint of `pollId` at the proxy of origin `proxy` from elsewhere; returns the unfollow. */
export function followVoteHints(proxy: string, pollId: string, listener: HintListener): () => void {
  listen();
  const key = keyOf(proxy, pollId);
  let set = listeners.get(key);
  if (!set) listeners.set(key, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(key);
  };
}
