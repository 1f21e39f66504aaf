import { Hono } from 'hono';
import { allClubs } from '../data/clubs.ts';
import { clubLogoSvg } from '../data/club-logo.ts';
import { VoteRefusal } from '../data/vote-rules.ts';
import { createControlRoutes } from '../control-routes.ts';
import type { SandboxState } from '../sandbox-state.ts';
import { gatewayCors } from './cors.ts';
import { gatewayAuth, type GatewayVariables } from './gateway-auth.ts';
import { backendError, gatewayErrors, jsonResponse } from './gateway-errors.ts';
import { classifyUnmatched, gatewayOperations } from './gateway-resources.ts';
import { operationHandlers } from './poll-routes.ts';
import { BadQuery } from './query-filters.ts';

/**
 * The resource API origin as WSO2 API Manager 4.x fronts it: the deployed operations behind the gateway's token
 * checks and throttle, its 404/405 answers, CORS, the club logos, and the sandbox's control routes.
 */
export function createApiApp(state: SandboxState): Hono {
  const app = new Hono<{ Variables: GatewayVariables }>();
  app.use('*', gatewayCors());
  app.route('/__sandbox', createControlRoutes(state));

  app.get('/assets/clubs/:file', (c) => {
    const club = allClubs.find((candidate) => `${candidate.slug}.svg` === c.req.param('file'));
    if (!club) return jsonResponse(404, gatewayErrors.apiNotFound);
    return c.body(clubLogoSvg(club), 200, {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
  });

  const handlers = operationHandlers(state);
  for (const operation of gatewayOperations) {
    app.on(operation.method, operation.path, gatewayAuth(state, operation), handlers[operation.name]);
  }

  app.notFound((c) => {
    switch (classifyUnmatched(c.req.method, c.req.path)) {
      case 'unknown-api':
        return jsonResponse(404, gatewayErrors.apiNotFound);
      case 'method-not-allowed':
        return jsonResponse(405, gatewayErrors.methodNotAllowed);
      case 'no-matching-resource':
        return jsonResponse(404, gatewayErrors.noMatchingResource);
    }
  });

  // The one error exit: bad queries and refused votes become backend errors; anything else a generic 500.
  app.onError((error) => {
    if (error instanceof BadQuery) return backendError(400, error.message);
    if (error instanceof VoteRefusal) return backendError(error.status, error.message);
    console.error('sandbox API error', error);
    return backendError(500, 'The sandbox failed to answer this request.');
  });
  return app as unknown as Hono;
}
