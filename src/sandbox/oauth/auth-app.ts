import { Hono } from 'hono';
import type { SandboxState } from '../sandbox-state.ts';
import { registerAuthorizeRoutes } from './authorize-routes.ts';
import { oauthChoices } from './oauth-choices.ts';
import { registerRevokeRoute } from './revoke-route.ts';
import { registerTokenRoute } from './token-route.ts';

/**
 * The OAuth server origin, an emulation of the platform's WSO2 key manager: authorize (with a login and consent
 * page), token and revoke. Not CORS-enabled, as the real one: the code exchange happens on a server.
 */
export function createAuthApp(state: SandboxState): Hono {
  const app = new Hono();
  registerAuthorizeRoutes(app, state);
  registerTokenRoute(app, state);
  registerRevokeRoute(app, state);

  const allowed: Record<string, string> = {
    '/oauth2/authorize': 'GET',
    [oauthChoices.decisionPath]: 'POST',
    '/oauth2/token': 'POST',
    '/oauth2/revoke': 'POST',
  };
  for (const [path, method] of Object.entries(allowed)) {
    app.all(path, (c) =>
      c.json({ error_description: `Method not allowed; use ${method}`, error: 'invalid_request' }, 405, {
        Allow: method,
      }),
    );
  }
  app.notFound((c) =>
    c.json({ error_description: 'No such endpoint on the OAuth server', error: 'not_found' }, 404),
  );
  // The one error exit: never a stack trace or a token in the answer.
  app.onError((error, c) => {
    console.error('OAuth server error:', error.name);
    return c.json({ error_description: 'Internal server error', error: 'server_error' }, 500);
  });
  return app;
}
