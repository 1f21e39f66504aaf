/**
 * Whether the fan really acted in this frame, judged in the content script's isolated world where the page cannot
 * forge it: the browser's transient user activation (`navigator.userActivation.isActive`, set only by trusted input
 * and lasting a few seconds), and a trusted click, tap or key press seen since the last window this frame opened. So
 * one real click opens at most one extension window, and a script's synthetic clicks open none.
 */
export interface UserActivationWatch {
  /** True (and used up) when the fan acted since the last time this returned true. */
  take(): boolean;
  stop(): void;
}

const activatingEvents = ['pointerdown', 'keydown', 'click'] as const;

export function watchUserActivation(page: Window): UserActivationWatch {
  let freshInput = false;
  const onInput = (event: Event): void => {
    if (event.isTrusted) freshInput = true;
  };
  // Capture on the window, registered at document_start before any page script: the page cannot stop it first.
  for (const type of activatingEvents) page.addEventListener(type, onInput, { capture: true });
  return {
    take() {
      // Older browsers without `userActivation` never pass: failing closed opens no window.
      const active = (page.navigator as Partial<Navigator>).userActivation?.isActive === true;
      if (!active || !freshInput) return false;
      freshInput = false;
      return true;
    },
    stop() {
      for (const type of activatingEvents) page.removeEventListener(type, onInput, { capture: true });
    },
  };
}
