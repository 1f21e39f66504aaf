import type { Poll } from '../../src/platform/types.ts';
import type {
  FetchPolls,
  LivePollListener,
  LivePollState,
  LivePollStore,
} from '../../src/polls/live-store-core.ts';

/** The first paint's read, handed to the live store: the polls it answered, or why it failed (the raw failure). */
export type FirstReadResult = { readonly ids: readonly string[]; readonly at: number } & (
  { readonly polls: readonly Poll[] } | { readonly failure: unknown }
);

/** Loads the live store (the `live` part) and starts it from the first read. */
export type StartLiveStore = (firstRead: FirstReadResult) => Promise<LivePollStore>;

interface Subscription {
  readonly pollId: string;
  readonly listener: LivePollListener;
  /** Set once the live store holds this subscription. */
  unsubscribe?: () => void;
}

/**
 * The script-tag widget's page store until the live store arrives: one batched read of every subscribed poll, shown at
 * once, then the `live` part (pace by phase, backoff, `Retry-After`, page signals, change detection) loads and takes
 * every subscription over, starting from that read. The live store, not this file, turns a failed read into the
 * cards' error (it knows the proxy's answers); when the part cannot load, the cards that have no poll yet show an
 * error, and a retry reads and loads again.
 */
export function createFirstReadStore(readOnce: FetchPolls, startLive: StartLiveStore): LivePollStore {
  const subscriptions = new Set<Subscription>();
  const states = new Map<string, LivePollState>();
  let live: LivePollStore | undefined;
  let reading = false;
  let planned = false;
  let disposed = false;
  /** A function, not the variable, because the store can be disposed while a read is awaited. */
  const isDisposed = () => disposed;

  function deliver(pollId: string, state: LivePollState): void {
    states.set(pollId, state);
    for (const subscription of [...subscriptions])
      if (subscription.pollId === pollId) tell(subscription.listener, state);
  }

  /** A zero timer: the cards that subscribe in the same task share the request. */
  function planRead(): void {
    if (planned || reading || live || disposed) return;
    planned = true;
    setTimeout(() => {
      planned = false;
      void read();
    }, 0);
  }

  async function read(): Promise<void> {
    const ids = [...new Set([...subscriptions].map((subscription) => subscription.pollId))];
    if (ids.length === 0 || disposed) return;
    reading = true;
    const at = Date.now();
    let result: FirstReadResult;
    try {
      const polls = await readOnce(ids);
      result = { ids, at, polls };
      const byId = new Map(polls.map((poll) => [poll.id.toLowerCase(), poll]));
      for (const id of ids) {
        const poll = byId.get(id.toLowerCase());
        if (poll) deliver(id, { status: 'ready', poll, fetchedAt: at });
      }
    } catch (failure) {
      result = { ids, at, failure };
    }
    try {
      const store = await startLive(result);
      if (isDisposed()) {
        store.dispose();
        return;
      }
      live = store;
      for (const subscription of subscriptions) {
        // The live store starts from the same poll objects: a card already showing one is not rendered again.
        let shown = states.get(subscription.pollId);
        subscription.unsubscribe = store.subscribe(subscription.pollId, (state) => {
          const same = shown?.status === 'ready' && state.status === 'ready' && state.poll === shown.poll;
          shown = undefined;
          if (!same) subscription.listener(state);
        });
      }
    } catch (error) {
      console.error('Fan Polls: live updates could not load; a retry tries again.', error);
      for (const { pollId } of subscriptions) {
        if (states.get(pollId)?.status === 'ready') continue;
        deliver(pollId, {
          status: 'error',
          error: { code: 'network', message: 'Live updates could not load.' },
        });
      }
    } finally {
      reading = false;
    }
  }

  return {
    subscribe(pollId, listener) {
      if (disposed) throw new Error('This live poll store was disposed.');
      if (live) return live.subscribe(pollId, listener);
      const subscription: Subscription = { pollId, listener };
      subscriptions.add(subscription);
      tell(listener, states.get(pollId) ?? { status: 'loading' });
      planRead();
      return () => {
        subscriptions.delete(subscription);
        subscription.unsubscribe?.();
      };
    },
    refresh(pollId) {
      if (live) live.refresh(pollId);
      else planRead();
    },
    dispose() {
      disposed = true;
      live?.dispose();
      subscriptions.clear();
    },
  };
}

/** A listener that throws is logged; the others still hear the change. */
function tell(listener: LivePollListener, state: LivePollState): void {
  try {
    listener(state);
  } catch (error) {
    console.error(error);
  }
}
