import type { ApplicationRegistry } from './applications.ts';
import type { Throttle } from './api/throttle.ts';
import type { SandboxClock } from './clock.ts';
import type { PollStore } from './data/poll-store.ts';
import type { FaultProfile } from './faults.ts';
import type { VoteSimulation } from './simulation.ts';
import type { TokenStore } from './token-store.ts';

/** Token lifetimes in seconds (numbers, not the literal defaults of choices.ts). */
export interface SandboxLifetimes {
  readonly accessTokenSeconds: number;
  readonly refreshTokenSeconds: number;
  readonly authorizationCodeSeconds: number;
  readonly applicationTokenSeconds: number;
}

/** Everything the two sandbox origins share. */
export interface SandboxState {
  readonly clock: SandboxClock;
  readonly applications: ApplicationRegistry;
  readonly tokens: TokenStore;
  readonly lifetimes: SandboxLifetimes;
  readonly polls: PollStore;
  readonly faults: FaultProfile;
  readonly throttle: Throttle;
  readonly simulation: VoteSimulation;
}
