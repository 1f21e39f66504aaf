import type { SandboxState } from './sandbox-state.ts';

/** Back to the first state: polls seeded again relative to the clock, no faults, fresh quotas and simulation. */
export function resetSandboxState(state: SandboxState): void {
  state.polls.reset();
  state.faults.clear();
  state.throttle.reset();
  state.simulation.reset();
}
