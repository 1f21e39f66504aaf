import type { LitElement } from 'lit';

/** Lets an element finish its updates and the promises and timers they started (a few rounds of each). */
export async function settle(element: LitElement): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    await element.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
