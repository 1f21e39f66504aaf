// A `current` banner's next switch, as its host page hears it (`<fan-poll-frame>` re-dispatches the card's event).
import type { Page } from 'playwright-core';

/** The banner's next `fan-poll-current-changed` detail, waited for from now. */
export async function nextBannerSwitch(
  tab: Page,
): Promise<() => Promise<{ pollId: string; previousPollId: string }>> {
  await tab.evaluate(() => {
    const holder = window as { nextBannerSwitch?: Promise<unknown> };
    holder.nextBannerSwitch = new Promise((resolve) => {
      document.querySelector('fan-poll-frame')!.addEventListener(
        'fan-poll-current-changed',
        (event) => {
          resolve((event as CustomEvent).detail);
        },
        { once: true },
      );
    });
  });
  return () =>
    tab.evaluate(
      () =>
        (window as { nextBannerSwitch?: Promise<{ pollId: string; previousPollId: string }> })
          .nextBannerSwitch!,
    );
}
