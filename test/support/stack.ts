// The platform sandbox and the partner proxy as real servers on free loopback ports, the proxy pointed at the
// sandbox through its environment as a partner would set it (the sandbox preset chosen, as `npm start` does). Tokens
// carry the canary prefix.
import { serveProxy, type RunningProxy, type ServeProxyOptions } from '../../src/proxy/serve.ts';
import { serveSandbox, type RunningSandbox, type ServeSandboxOptions } from '../../src/sandbox/serve.ts';
import type { LogSink } from '../../src/proxy/logger.ts';
import { canaryTokenPrefix } from './canary.ts';

/** Every request the proxy sent to the platform, in order. */
export type UpstreamLog = { method: string; path: string }[];

export interface SandboxAndProxy {
  readonly sandbox: RunningSandbox;
  readonly proxy: RunningProxy;
  readonly upstream: UpstreamLog;
  /** Stops the proxy, then the sandbox. */
  close(): Promise<void>;
}

export interface StackOptions {
  /** Over the defaults: free ports, canary tokens. */
  readonly sandbox?: ServeSandboxOptions;
  /** Over the defaults: a free port, the sandbox preset and the platform URLs in `env` (which `env` given here can extend). */
  readonly proxy?: ServeProxyOptions;
}

export async function startSandboxAndProxy(options: StackOptions = {}): Promise<SandboxAndProxy> {
  const sandbox = await serveSandbox({
    apiPort: 0,
    authPort: 0,
    tokenPrefix: canaryTokenPrefix,
    ...options.sandbox,
  });
  const upstream: UpstreamLog = [];
  const platformFetch = options.proxy?.deps?.fetch ?? fetch;
  let proxy: RunningProxy;
  try {
    proxy = await serveProxy({
      port: 0,
      ...options.proxy,
      deps: {
        logSink: testLogSink,
        ...options.proxy?.deps,
        fetch: (input, init) => {
          const request = new Request(input, init);
          upstream.push({ method: request.method, path: new URL(request.url).pathname });
          // The caller's arguments, not the copy, whose abort a garbage collection can lose (nodejs/undici#4068).
          return platformFetch(input, init);
        },
      },
      env: {
        FAN_POLLS_PRESET: 'sandbox',
        FAN_POLLS_PLATFORM_API_URL: sandbox.apiUrl,
        FAN_POLLS_PLATFORM_AUTH_URL: sandbox.authUrl,
        ...options.proxy?.env,
      },
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    sandbox,
    proxy,
    upstream,
    close: async () => {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** The proxy's info lines would bury test output: tests show warnings and errors (all lines with FAN_POLLS_TEST_LOGS=1). */
const testLogSink: LogSink = (level, line) => {
  if (level === 'error') console.error(line);
  else if (level === 'warn' || process.env.FAN_POLLS_TEST_LOGS === '1') console.warn(line);
};
