import { Hono } from 'hono';
import type { SandboxState } from '../sandbox.ts';

/** The resource API origin. Placeholder until the gateway and routes land. */
export function createApiApp(_state: SandboxState): Hono {
  return new Hono();
}
