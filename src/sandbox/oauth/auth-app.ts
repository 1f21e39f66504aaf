import { Hono } from 'hono';
import type { SandboxState } from '../sandbox.ts';

/** The OAuth server origin. Placeholder until the authorize, token and revoke routes land. */
export function createAuthApp(_state: SandboxState): Hono {
  return new Hono();
}
