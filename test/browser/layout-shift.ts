// The layout shift of a visit, as the browser tests measure it against the budget (below 0.02).

/**
 * Sums the page's layout shifts (without recent input) from its first frame on, into `window.layoutShift`. An init
 * script (`addInitScript`): it runs in every frame of the page, a banner's too.
 */
export function watchLayoutShift(): void {
  const shifts = window as { layoutShift?: number };
  shifts.layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[])
      if (!entry.hadRecentInput) shifts.layoutShift! += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}
