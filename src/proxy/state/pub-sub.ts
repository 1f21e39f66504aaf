/**
 * Messages to every instance that listens, beside the key-value store: what the stream fan-out publishes (a poll's
 * new copy) and every instance subscribed to the channel hears, the publisher included. Fire and forget: a listener
 * that was away misses what was said meanwhile (the stream's refresher reads the copy again when it is overdue). One
 * conformance suite (`pub-sub.conformance.ts`) runs on the memory and the Redis backend.
 */
export interface PubSub {
  /** Sends `message` to every current subscriber of `channel` (this instance's included). */
  publish(channel: string, message: string): Promise<void>;
  /** `listener` hears every message on `channel` from now on; resolves once subscribed, with the unsubscribe. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Stops listening altogether (shutdown). */
  close(): Promise<void>;
}

/** Within one instance's memory (the embedded default): a message reaches the subscribers of this process. */
export class MemoryPubSub implements PubSub {
  readonly #channels = new Map<string, Set<(message: string) => void>>();

  publish(channel: string, message: string): Promise<void> {
    // Delivered after the publisher's own code has run, as a message from Redis would be.
    for (const listener of [...(this.#channels.get(channel) ?? [])])
      queueMicrotask(() => {
        listener(message);
      });
    return Promise.resolve();
  }

  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    const listeners = this.#channels.get(channel) ?? new Set();
    this.#channels.set(channel, listeners);
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const subscription = (message: string) => {
      listener(message);
    };
    listeners.add(subscription);
    return Promise.resolve(() => {
      listeners.delete(subscription);
      if (listeners.size === 0) this.#channels.delete(channel);
      return Promise.resolve();
    });
  }

  close(): Promise<void> {
    this.#channels.clear();
    return Promise.resolve();
  }
}
