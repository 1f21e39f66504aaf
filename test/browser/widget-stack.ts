// The widget's browser-test stack: sandbox, proxy and demo page on free ports, the widget built, and Chromium.
import { serveDemo, type RunningDemo } from '../../src/dev/demo-server.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { freePort } from '../support/free-port.ts';
import { makeTestCertificate, terminateTls } from '../support/https-terminator.ts';
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
  /** Where the demo's banner comes from (`serveDemo`'s `bannerFrom`; default: the demo's own origin). */
  readonly bannerFrom?: 'demo' | 'proxy';
  /**
   * `true`: the demo page and the proxy are served over https (a certificate made at test time, TLS terminated in
   * front of each), the page as `https://localhost:<port>` and the proxy as `https://127.0.0.1:<port>`, two sites.
   * The sandbox stays on plain http: the proxy calls it server-side and its consent page is top-level.
   */
  readonly https?: boolean;
  /** With `https`: sees the head of each request the proxy gets (its cookies included). */
  readonly watchProxyRequest?: (head: string) => void;
  /** The proxy's sign-ins per client address per minute (its default, 20, is one fan's; every test is 127.0.0.1). */
  readonly signInPerMinute?: number;
  /**
   * How long a poll answer stays fresh in the proxy (its default, 5 s). A shorter window makes more cache misses: the
   * stack then allows 10 times the default misses, per client and in all (every test's fan reads from 127.0.0.1).
   */
  readonly pollCacheSeconds?: number;
}

/** The proxy's settings the stack's options set, beside its allowed origins. */
function proxyEnv(options: WidgetStackOptions): Record<string, string> {
  return {
    ...(options.signInPerMinute !== undefined && {
      FAN_POLLS_SIGN_IN_PER_MINUTE: String(options.signInPerMinute),
    }),
    ...(options.pollCacheSeconds !== undefined && {
      FAN_POLLS_POLL_CACHE_SECONDS: String(options.pollCacheSeconds),
      FAN_POLLS_PUBLIC_MISSES_PER_CLIENT_PER_MINUTE: '600',
      FAN_POLLS_PUBLIC_READS_PER_MINUTE: '5000',
    }),
  };
}

export async function startWidgetStack(options: WidgetStackOptions = {}): Promise<WidgetStack> {
  if (options.https) return startHttpsWidgetStack(options);
  let proxyUrl = '';
  // The demo page before the proxy: the proxy allows the demo's origin, the demo learns the proxy's URL later.
  const served = await serveDemo({
    port: 0,
    proxyUrl: () => proxyUrl,
    ...(options.bannerFrom && { bannerFrom: options.bannerFrom }),
  });
  const demo: RunningDemo = options.crossSite
    ? { url: onAnotherSite(served.url), close: () => served.close() }
    : served;
  const stack = await startStackAllowing(demo.url, {
    ...(options.simulate === undefined ? {} : { simulate: options.simulate }),
    env: proxyEnv(options),
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

/**
 * The sandbox and a proxy that allows `pageOrigin` (set through the environment, as a partner does). The proxy's port
 * is picked first: its sign-in callback must be registered with the sandbox before the proxy starts.
 */
export async function startStackAllowing(
  pageOrigin: string,
  options: { readonly simulate?: boolean; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<SandboxAndProxy> {
  const proxyPort = await freePort();
  return startSandboxAndProxy({
    sandbox: {
      ...(options.simulate === undefined ? {} : { simulate: options.simulate }),
      extraRedirectUris: [`http://127.0.0.1:${proxyPort}/auth/callback`],
    },
    proxy: { port: proxyPort, env: { FAN_POLLS_ALLOWED_ORIGINS: pageOrigin, ...options.env } },
  });
}

/** The widget stack over https, the page on another site than the proxy (`WidgetStackOptions.https`). */
async function startHttpsWidgetStack(options: WidgetStackOptions): Promise<WidgetStack> {
  const certificate = makeTestCertificate();
  let proxyUrl = '';
  let plainProxyUrl = '';
  const served = await serveDemo({
    port: 0,
    proxyUrl: () => proxyUrl,
    ...(options.bannerFrom && { bannerFrom: options.bannerFrom }),
    // The demo's own reads of the proxy (its live polls) skip the self-signed certificate: plain http on loopback.
    fetch: (input, init) =>
      fetch((input instanceof Request ? input.url : input.toString()).replace(proxyUrl, plainProxyUrl), init),
  });
  const demoTls = await terminateTls(certificate, Number(new URL(served.url).port));
  const demoUrl = `https://localhost:${String(demoTls.port)}`;
  const [proxyPort, proxyTlsPort] = [await freePort(), await freePort()];
  proxyUrl = `https://127.0.0.1:${String(proxyTlsPort)}`;
  const stack = await startSandboxAndProxy({
    sandbox: {
      ...(options.simulate === undefined ? {} : { simulate: options.simulate }),
      extraRedirectUris: [`${proxyUrl}/auth/callback`],
    },
    proxy: {
      port: proxyPort,
      env: { FAN_POLLS_ALLOWED_ORIGINS: demoUrl, FAN_POLLS_PUBLIC_URL: proxyUrl, ...proxyEnv(options) },
    },
  });
  plainProxyUrl = stack.proxy.url;
  const proxyTls = await terminateTls(certificate, proxyPort, proxyTlsPort, options.watchProxyRequest);
  return {
    ...stack,
    proxy: { ...stack.proxy, url: proxyUrl },
    demo: { url: demoUrl, close: () => served.close() },
    close: async () => {
      await Promise.all([demoTls.close(), proxyTls.close()]);
      await served.close();
      await stack.close();
    },
  };
}

/**
 * A loopback URL as another site than the proxy's (`http://localhost:<port>` against `http://127.0.0.1:<port>`), so
 * that the proxy's cookies are third-party there. Chromium resolves `localhost` to loopback itself.
 */
export function onAnotherSite(loopbackUrl: string): string {
  return loopbackUrl.replace('//127.0.0.1:', '//localhost:');
}

/** The widget tests' name for the shared headless launch. */
export { launchBrowser as launchChromium } from '../support/chromium.ts';
