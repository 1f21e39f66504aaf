import type { Hono } from 'hono';
import {
  ApplicationRegistry,
  demoRegisteredApplication,
  type RegisteredApplication,
} from './applications.ts';
import { sandboxChoices } from './choices.ts';
import { SandboxClock } from './clock.ts';
import { TokenStore } from './token-store.ts';
import { createApiApp } from './api/api-app.ts';
import { Throttle } from './api/throttle.ts';
import { createAuthApp } from './oauth/auth-app.ts';
import { PollStore } from './data/poll-store.ts';
import { FaultProfile, withFaults } from './faults.ts';
import { VoteSimulation } from './simulation.ts';
import { resetSandboxState } from './reset.ts';
import type { SandboxLifetimes, SandboxState } from './sandbox-state.ts';

export type { SandboxLifetimes, SandboxState } from './sandbox-state.ts';

export interface SandboxOptions {
  clock?: SandboxClock;
  /** Token lifetimes in seconds; defaults are WSO2's (see choices.ts). */
  lifetimes?: Partial<SandboxLifetimes>;
  /** Applications to register; the demo application is always registered. */
  applications?: readonly RegisteredApplication[];
  /** More redirect URIs for the demo application (a proxy on another port, a Firefox extension). */
  extraRedirectUris?: readonly string[];
  /** Prefix of every issued token: tests set a canary to find leaks. */
  tokenPrefix?: string;
  /** Throttle quota per application and minute (default in choices.ts); 0 turns throttling off. */
  requestsPerMinute?: number;
  /** Simulated votes a minute in every open poll while the simulation runs (default in choices.ts). */
  simulatedVotesPerMinute?: number;
  /** Seed of the simulation's random numbers. */
  simulationSeed?: number;
  /** How long a vote stays `pending` before it is `accepted` (or `rejected`), by the sandbox clock. */
  voteConfirmationMs?: number;
}

/** The platform sandbox: two Hono apps, the resource API and the OAuth server, over one shared state. */
export interface Sandbox {
  readonly state: SandboxState;
  /** The resource API origin (`/polls/1.0.8/...`, `/user/1.0.0/...`, `/survey/...`, `/__sandbox/...`). */
  readonly api: Hono;
  /** The OAuth server origin (`/oauth2/authorize`, `/oauth2/token`, `/oauth2/revoke`). */
  readonly auth: Hono;
  readonly clock: SandboxClock;
  readonly faults: FaultProfile;
  readonly polls: PollStore;
  readonly throttle: Throttle;
  readonly simulation: VoteSimulation;
  /** Polls seeded again relative to the clock, faults off, quotas and simulation fresh. */
  reset(): void;
  /** Starts simulated fans on a real timer (serveSandbox does); stop before dropping the sandbox. */
  startSimulation(): void;
  stopSimulation(): void;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = options.clock ?? new SandboxClock();
  const lifetimes: SandboxLifetimes = { ...sandboxChoices.lifetimes, ...options.lifetimes };
  const applications = new ApplicationRegistry([
    demoRegisteredApplication(options.extraRedirectUris),
    ...(options.applications ?? []),
  ]);
  const tokens = new TokenStore(clock, lifetimes, options.tokenPrefix);
  const polls = new PollStore(clock, options.voteConfirmationMs ?? sandboxChoices.voteConfirmationMs);
  const faults = new FaultProfile();
  const throttle = new Throttle(clock, options.requestsPerMinute ?? sandboxChoices.requestsPerMinute);
  const simulation = new VoteSimulation(
    polls,
    options.simulatedVotesPerMinute ?? sandboxChoices.simulatedVotesPerMinute,
    options.simulationSeed ?? sandboxChoices.simulationSeed,
  );
  const state: SandboxState = { clock, applications, tokens, lifetimes, polls, faults, throttle, simulation };
  return {
    state,
    api: withFaults(createApiApp(state), faults, clock),
    auth: withFaults(createAuthApp(state), faults, clock),
    clock,
    faults,
    polls,
    throttle,
    simulation,
    reset: () => {
      resetSandboxState(state);
    },
    startSimulation: () => {
      simulation.start();
    },
    stopSimulation: () => {
      simulation.stop();
    },
  };
}
