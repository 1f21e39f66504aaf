import type { MiddlewareHandler } from 'hono';
import { sandboxChoices } from '../choices.ts';

/** WSO2's default CORS configuration: any origin, no credentials, preflights answered by the gateway itself. */
const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET,PUT,POST,DELETE,PATCH,OPTIONS',
  'Access-Control-Allow-Headers':
    'authorization,Access-Control-Allow-Origin,Content-Type,SOAPAction,apikey,Internal-Key',
} as const;

/** Adds CORS headers to every answer of the resource API (not the control routes) and answers preflights. */
export function gatewayCors(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.path.startsWith('/__sandbox/')) return next();
    if (c.req.method === 'OPTIONS') return new Response(null, { status: 200, headers: corsHeaders });
    await next();
    c.header('Access-Control-Allow-Origin', '*');
    // The sandbox's own paging header must be readable by a browser (Retry-After stays unexposed, as in WSO2).
    c.header('Access-Control-Expose-Headers', sandboxChoices.cursorHeader);
  };
}
