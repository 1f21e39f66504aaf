// The Worker beside the Node harness: the environment that points the edge bundle on workerd at the harness's
// sandbox with the canary application, and the registration of its sign-in callback.
import { canarySecret } from '../support/canary.ts';
import type { RunningWorkerd } from '../support/workerd.ts';
import { canaryApplication, pageOrigin, type Harness } from './proxy-harness.ts';

/** The Worker's variables for the harness's sandbox, then `extra`. */
export function edgeEnvironment(node: Harness, extra: Record<string, string> = {}): Record<string, string> {
  return {
    FAN_POLLS_PRESET: 'sandbox',
    FAN_POLLS_PLATFORM_API_URL: node.sandbox.apiUrl,
    FAN_POLLS_PLATFORM_AUTH_URL: node.sandbox.authUrl,
    FAN_POLLS_CLIENT_ID: canaryApplication.clientId,
    FAN_POLLS_CLIENT_SECRET: canarySecret,
    FAN_POLLS_PARTNER_TAG: canaryApplication.partnerTag,
    FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
    FAN_POLLS_SESSION_SECRET: 'edge-test-session-secret-0123456789abcdef',
    ...extra,
  };
}

/** Registers the Worker's sign-in callback with the canary application, beside the Node proxy's. */
export function registerEdgeCallback(node: Harness, workerd: RunningWorkerd): void {
  node.sandbox.sandbox.state.applications.register({
    ...canaryApplication,
    redirectUris: [node.proxy.config.callbackUrl, `${workerd.url}/auth/callback`],
  });
}
