import { localPorts } from '../local-defaults.ts';
import { closeServer, listenOnLoopback } from '../node/loopback-server.ts';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts';

export interface RunningSandbox {
  readonly sandbox: Sandbox;
  /** `{base_url}` of the spec: the resource API. */
  readonly apiUrl: string;
  /** `{auth_url}` of the spec: the OAuth server. */
  readonly authUrl: string;
  close(): Promise<void>;
}

export interface ServeSandboxOptions extends SandboxOptions {
  /** Port of the resource API; 0 picks a free one. */
  apiPort?: number;
  /** Port of the OAuth server; 0 picks a free one. */
  authPort?: number;
  /** Whether simulated fans vote on a real timer while served (default true; `close()` stops them). */
  simulate?: boolean;
}

/** Serves the sandbox's two origins on loopback, as two listeners, like the real platform's two hosts. */
export async function serveSandbox(options: ServeSandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = createSandbox(options);
  const api = await listenOnLoopback(sandbox.api.fetch, options.apiPort ?? localPorts.sandboxApi);
  const auth = await listenOnLoopback(sandbox.auth.fetch, options.authPort ?? localPorts.sandboxAuth);
  if (options.simulate ?? true) sandbox.startSimulation();
  return {
    sandbox,
    apiUrl: api.url,
    authUrl: auth.url,
    close: async () => {
      sandbox.stopSimulation();
      await Promise.all([closeServer(api.server), closeServer(auth.server)]);
    },
  };
}
