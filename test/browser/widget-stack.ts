// The widget's browser-test stack: sandbox, proxy and demo page on free ports, the widget built, and Chromium.
import { serveDemo, type RunningDemo } from '../../src/dev/demo-server.ts';
import { closeServer, listenOnLoopback } from '../../src/node/loopback-server.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
export { ensureWidgetBuilt } from '../support/vite-build.ts';

export interface WidgetStack extends SandboxAndProxy {
  readonly demo: RunningDemo;
}

export interface WidgetStackOptions {
  /** Simulated fans voting in open polls (the sandbox's default: on). */
  readonly simulate?: boolean;
  /**
   * `true`: the demo page is addressed as `http://localhost:<port>` while the proxy stays on
   * `http://127.0.0.1:<port>`, two different sites, so that the proxy's cookies are third-party on the demo page and
   * a card's cookies live in the demo site's partition. Default: both on 127.0.0.1 (same site).
   */
  readonly crossSite?: boolean;
}

export async function startWidgetStack(options: WidgetStackOptions = {}): Promise<WidgetStack> {
  // The proxy's port first: its sign-in callback must be registered with the sandbox before the proxy starts.
  const proxyPort = await freePort();
  let proxyUrl = '';
  // The demo page before the proxy: the proxy allows the demo's origin, the demo learns the proxy's URL later.
  const served = await serveDemo({ port: 0, proxyUrl: () => proxyUrl });
  // The demo listens on 127.0.0.1 either way; Chromium resolves `localhost` to loopback itself.
  const demo: RunningDemo = options.crossSite
    ? { url: served.url.replace('//127.0.0.1:', '//localhost:'), close: () => served.close() }
    : served;
  const stack = await startSandboxAndProxy({
    sandbox: {
      ...(options.simulate === undefined ? {} : { simulate: options.simulate }),
      extraRedirectUris: [`http://127.0.0.1:${proxyPort}/auth/callback`],
    },
    proxy: {
      port: proxyPort,
      // As a partner sets it: through the environment, so that the proxy's own origin check reads it.
      env: { FAN_POLLS_ALLOWED_ORIGINS: demo.url },
    },
  });
  proxyUrl = stack.proxy.url;
  return {
    ...stack,
    demo,
    close: async () => {
      await demo.close();
      await stack.close();
    },
  };
}

/** A port free right now (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const { server, port } = await listenOnLoopback(() => new Response(null, { status: 204 }), 0);
  await closeServer(server);
  return port;
}

/** The widget tests' name for the shared headless launch. */
export { launchBrowser as launchChromium } from '../support/chromium.ts';
