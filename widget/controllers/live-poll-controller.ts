import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { LivePollState, LivePollStore } from '../store/poll-model.ts';
import { nearViewportPx } from './near-viewport.ts';

/**
 * Subscribes a card to the page's live store for one poll, once the card is near the viewport (or at once when
 * `eager`). Unsubscribes when the card leaves the page, so a single-page app that removes cards stops their reads.
 */
export class LivePollController implements ReactiveController {
  state: LivePollState = { status: 'loading' };
  private unsubscribe: (() => void) | undefined;
  private observer: IntersectionObserver | undefined;
  private subscribedTo: { store: LivePollStore; pollId: string } | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly source: () => { store: LivePollStore | undefined; pollId: string; eager: boolean },
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Call after the poll id, the store or `eager` changed. */
  sync(): void {
    const { store, pollId, eager } = this.source();
    if (!this.host.isConnected || !store || pollId === '') {
      this.stop();
      return;
    }
    if (this.subscribedTo?.store === store && this.subscribedTo.pollId === pollId) return;
    this.stop();
    this.subscribedTo = { store, pollId };
    if (eager || typeof IntersectionObserver !== 'function') {
      this.start(store, pollId);
      return;
    }
    this.observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        this.observer?.disconnect();
        this.observer = undefined;
        this.start(store, pollId);
      },
      { rootMargin: `${nearViewportPx}px` },
    );
    this.observer.observe(this.host);
  }

  retry(): void {
    const subscribed = this.subscribedTo;
    if (!subscribed) return;
    this.state = { status: 'loading' };
    this.host.requestUpdate();
    subscribed.store.refresh(subscribed.pollId);
  }

  private start(store: LivePollStore, pollId: string): void {
    this.unsubscribe = store.subscribe(pollId, (state) => {
      this.state = state;
      this.host.requestUpdate();
    });
  }

  private stop(): void {
    this.observer?.disconnect();
    this.observer = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.subscribedTo = undefined;
    this.state = { status: 'loading' };
  }
}
