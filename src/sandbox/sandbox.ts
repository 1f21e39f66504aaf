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
import { createAuthApp } from './oauth/auth-app.ts';

export interface SandboxOptions {
  clock?: SandboxClock;
  /** Token lifetimes in seconds; defaults are WSO2's (see choices.ts). */
  lifetimes?: Partial<typeof sandboxChoices.lifetimes>;
  /** Applications to register; the demo application is always registered. */
  applications?: readonly RegisteredApplication[];
  /** More redirect URIs for the demo application (a proxy on another port, a Firefox extension). */
  extraRedirectUris?: readonly string[];
  /** Prefix of every issued token: tests set a canary to find leaks. */
  tokenPrefix?: string;
}

/** Everything the two sandbox origins share: the clock, the registered applications and the issued tokens. */
export interface SandboxState {
  readonly clock: SandboxClock;
  readonly applications: ApplicationRegistry;
  readonly tokens: TokenStore;
  readonly lifetimes: typeof sandboxChoices.lifetimes;
}

/** The platform sandbox: two Hono apps, the resource API and the OAuth server, over one shared state. */
export interface Sandbox {
  readonly state: SandboxState;
  /** The resource API origin (`/polls/1.0.8/...`, `/user/1.0.0/...`, `/survey/...`). */
  readonly api: Hono;
  /** The OAuth server origin (`/oauth2/authorize`, `/oauth2/token`, `/oauth2/revoke`). */
  readonly auth: Hono;
}

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const clock = options.clock ?? new SandboxClock();
  const lifetimes = { ...sandboxChoices.lifetimes, ...options.lifetimes };
  const applications = new ApplicationRegistry([
    demoRegisteredApplication(options.extraRedirectUris),
    ...(options.applications ?? []),
  ]);
  const tokens = new TokenStore(clock, lifetimes, options.tokenPrefix);
  const state: SandboxState = { clock, applications, tokens, lifetimes };
  return { state, api: createApiApp(state), auth: createAuthApp(state) };
}
