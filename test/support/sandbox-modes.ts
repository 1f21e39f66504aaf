// The platform sandbox two ways for client tests that should pass alike: in-process (fetch routed to the apps) and
// over real sockets. `describe.each(sandboxModes(options))` runs a suite against both.
import { demoApplication } from '../../src/local-defaults.ts';
import type { FetchLike } from '../../src/platform/http.ts';
import { OAuthClient, type OAuthClientSettings } from '../../src/platform/oauth.ts';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/sandbox.ts';
import { createSandbox } from '../../src/sandbox/sandbox.ts';
import { serveSandbox } from '../../src/sandbox/serve.ts';
import { inProcessFetch } from '../../src/sandbox/test-kit.ts';

export interface SandboxUnderTest {
  readonly sandbox: Sandbox;
  readonly apiUrl: string;
  readonly authUrl: string;
  readonly fetch: FetchLike;
  close(): Promise<void>;
}

/** The sandbox in-process, at two loopback origins nothing listens on. */
export function sandboxInProcess(options: SandboxOptions = {}): SandboxUnderTest {
  const sandbox = createSandbox(options);
  const apiUrl = 'http://127.0.0.1:1';
  const authUrl = 'http://127.0.0.1:2';
  return { sandbox, apiUrl, authUrl, fetch: inProcessFetch(sandbox, apiUrl), close: () => Promise.resolve() };
}

/** The sandbox on two free loopback ports, simulated voting stopped, reached with the real fetch. */
export async function sandboxOverSockets(options: SandboxOptions = {}): Promise<SandboxUnderTest> {
  const running = await serveSandbox({ ...options, apiPort: 0, authPort: 0, simulate: false });
  return {
    sandbox: running.sandbox,
    apiUrl: running.apiUrl,
    authUrl: running.authUrl,
    fetch: (input, init) => globalThis.fetch(input, init),
    close: () => running.close(),
  };
}

/** Rows for `describe.each`: a mode's name and how to start it. */
export function sandboxModes(
  options: SandboxOptions = {},
): [mode: string, start: () => Promise<SandboxUnderTest>][] {
  return [
    ['in-process', () => Promise.resolve(sandboxInProcess(options))],
    ['over sockets', () => sandboxOverSockets(options)],
  ];
}

/** The demo application's OAuth client against a sandbox under test (plain http allowed), with `settings` over. */
export function demoOAuthClient(
  target: SandboxUnderTest,
  settings: Partial<OAuthClientSettings> = {},
): OAuthClient {
  return new OAuthClient({
    authUrl: target.authUrl,
    clientId: demoApplication.clientId,
    clientSecret: demoApplication.clientSecret,
    allowInsecureRequests: true,
    fetch: target.fetch,
    ...settings,
  });
}
