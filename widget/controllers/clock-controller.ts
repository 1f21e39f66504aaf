import type { ReactiveController, ReactiveControllerHost } from 'lit';

type Listener = () => void;
const listeners = new Set<Listener>();
let timer: ReturnType<typeof setInterval> | undefined;

/** One second-timer for the whole page, running only while some card shows a countdown. */
function listen(listener: Listener): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    for (const each of listeners) each();
  }, 1000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Gives a card the current time and re-renders it every second while `ticking` is on. */
export class ClockController implements ReactiveController {
  private stopListening: (() => void) | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  now(): number {
    return Date.now();
  }

  /** Turns the per-second re-render on or off (on only while a countdown is visible). */
  set ticking(on: boolean) {
    if (on && !this.stopListening)
      this.stopListening = listen(() => {
        this.host.requestUpdate();
      });
    if (!on) this.hostDisconnected();
  }

  hostDisconnected(): void {
    this.stopListening?.();
    this.stopListening = undefined;
  }
}
