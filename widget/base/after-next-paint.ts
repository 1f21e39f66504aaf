/**
 * Runs `work` once the browser has painted the next frame (a task queued from an animation frame runs after that
 * frame's paint): what a first paint does not need starts after it, not before.
 */
export function afterNextPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}
