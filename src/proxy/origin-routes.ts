import { Hono } from 'hono';
import type { OriginCheck } from '../contracts/origin-check-contract.ts';
import type { ProxyRuntime } from './runtime.ts';

/** `GET /api/origin`: is the caller's origin an allowed page? For any page to read (see the contract). */
export function originRoutes(runtime: Pick<ProxyRuntime, 'isAllowedPage'>): Hono {
  const app = new Hono();
  app.get('/', (c) => {
    const origin = c.req.header('Origin') ?? null;
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Cache-Control', 'no-store');
    return c.json({
      origin,
      allowed: origin !== null && runtime.isAllowedPage(origin),
    } satisfies OriginCheck);
  });
  return app;
}
