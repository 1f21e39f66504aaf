import type { MiddlewareHandler } from 'hono';
import { sandboxChoices } from '../choices.ts';
import type { TokenGrant } from '../token-store.ts';
import type { SandboxState } from '../sandbox-state.ts';
import type { GatewayOperation } from './gateway-resources.ts';
import {
  gatewayErrors,
  incorrectTokenType,
  jsonResponse,
  throttledResponse,
  unauthorizedResponse,
} from './gateway-errors.ts';

export type GatewayVariables = { grant: TokenGrant };

/**
 * The gateway's checks for one operation, in WSO2's order: a bearer token, a valid one, the right kind for the
 * route, a subscribed application, then the application's throttle quota.
 */
export function gatewayAuth(
  state: SandboxState,
  operation: GatewayOperation,
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    const header = c.req.header('Authorization');
    if (header === undefined || !/^bearer\s/i.test(header)) {
      return unauthorizedResponse(gatewayErrors.missingCredentials);
    }
    const token = header.replace(/^bearer\s+/i, '').trim();
    const lookup = token === '' ? undefined : state.tokens.lookupAccessToken(token);
    const application = lookup?.ok ? state.applications.find(lookup.grant.clientId) : undefined;
    if (!lookup?.ok || !application) return unauthorizedResponse(gatewayErrors.invalidCredentials);
    // Application tokens cannot act for a user; user tokens are accepted everywhere (see choices.ts).
    if (operation.token === 'user' && lookup.grant.kind !== 'user') {
      return unauthorizedResponse(incorrectTokenType(operation.apiContext, operation.version));
    }
    if (!application.subscribed) return jsonResponse(403, gatewayErrors.resourceForbidden);
    const resumesAt = state.throttle.take(application.clientId);
    if (resumesAt !== undefined) return throttledResponse(sandboxChoices.throttleCode, resumesAt);
    c.set('grant', lookup.grant);
    await next();
  };
}
