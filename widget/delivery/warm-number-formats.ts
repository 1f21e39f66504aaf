/**
 * Makes the browser load its number formatting (ICU) for `lang` once the drawn cards are on screen (a task queued from
 * the next animation frame runs after its paint), while the hydrating bundle is still on its way. A page's first
 * `Intl.NumberFormat` costs about 20 ms of CPU (about 90 ms on a phone's CPU, 4x slower), and the card's first render
 * needs one: without this, the cost lands in hydration's task, between the fan and a working tap.
 * `base/after-next-paint.ts` does the same two steps; importing it here would move it into this first-paint entry and
 * cost 13 B more of the first-paint budget than these two lines.
 */
export function warmNumberFormatsAfterPaint(lang: string): void {
  requestAnimationFrame(() =>
    setTimeout(() => {
      try {
        new Intl.NumberFormat(lang);
      } catch {
        // A language the browser does not know: the card falls back to its default as ever.
      }
    }, 0),
  );
}
