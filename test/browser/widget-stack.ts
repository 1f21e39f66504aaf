// The widget's browser-test stack: sandbox, proxy and demo page on free ports, the widget built, and Chromium.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { serveDemo, type RunningDemo } from '../../src/dev/demo-server.ts';
import { serveProxy, type RunningProxy } from '../../src/proxy/serve.ts';
import { serveSandbox, type RunningSandbox } from '../../src/sandbox/serve.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface WidgetStack {
  readonly sandbox: RunningSandbox;
  readonly proxy: RunningProxy;
  readonly demo: RunningDemo;
  close(): Promise<void>;
}

/** Builds `dist/widget` when it is missing or older than any file of `widget/` or `src/polls/`. */
export function ensureWidgetBuilt(): void {
  const built = `${root}dist/widget/fan-polls.js`;
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const newest = Math.max(
    ...['widget', 'src/polls', 'src/contracts'].map((folder) => newestIn(`${root}${folder}`)),
  );
  if (newest > builtAt) {
    execFileSync('npx', ['vite', 'build', '--mode', 'widget'], { cwd: root, stdio: 'inherit' });
  }
}

function newestIn(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Requests the proxy sent to the platform, in order (method and path). */
export type UpstreamLog = { method: string; path: string }[];

export async function startWidgetStack(
  options: { simulate?: boolean } = {},
): Promise<WidgetStack & { upstream: UpstreamLog }> {
  // The proxy's port first: its sign-in callback must be registered with the sandbox before the proxy starts.
  const proxyPort = await freePort();
  const sandbox = await serveSandbox({
    apiPort: 0,
    authPort: 0,
    ...(options.simulate === undefined ? {} : { simulate: options.simulate }),
    extraRedirectUris: [`http://127.0.0.1:${proxyPort}/auth/callback`],
  });
  let proxyUrl = '';
  const demo = await serveDemo({ port: 0, proxyUrl: () => proxyUrl });
  const upstream: UpstreamLog = [];
  const proxy = await serveProxy({
    port: proxyPort,
    config: { platformApiUrl: sandbox.apiUrl, platformAuthUrl: sandbox.authUrl, allowedOrigins: [demo.url] },
    deps: {
      fetch: (input, init) => {
        const request = new Request(input, init);
        upstream.push({ method: request.method, path: new URL(request.url).pathname });
        return fetch(request);
      },
    },
  });
  proxyUrl = proxy.url;
  return {
    sandbox,
    proxy,
    demo,
    upstream,
    close: async () => {
      await demo.close();
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** A port free right now (listen on 0, read it, close). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
