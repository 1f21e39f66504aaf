// Shared set-up of the extension's browser tests: the built extension in a fresh Chromium profile, the sandbox and
// the proxy on random ports, and small pages on loopback that talk the page-bridge protocol.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { extensionId, extensionRedirectUri } from '../../src/local-defaults.ts';
import { serveProxy, type RunningProxy } from '../../src/proxy/serve.ts';
import { serveSandbox, type RunningSandbox, type ServeSandboxOptions } from '../../src/sandbox/serve.ts';

export const extensionDir = resolve(import.meta.dirname, '../../dist/extension/chrome');
export const canaryPrefix = 'CANARY-fanpolls-';

/** `npm test` builds first; a lone run of these tests builds the Chromium extension when it is missing. */
export function ensureExtensionBuilt(): void {
  if (existsSync(join(extensionDir, 'manifest.json'))) return;
  execFileSync('npx', ['vite', 'build', '--mode', 'extension-chrome'], { stdio: 'inherit' });
}

export interface LoadedExtension {
  readonly context: BrowserContext;
  readonly id: string;
  worker(): Promise<Worker>;
  close(): Promise<void>;
}

export async function launchExtension(): Promise<LoadedExtension> {
  ensureExtensionBuilt();
  const profile = await mkdtemp(join(tmpdir(), 'fan-polls-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    headless: true,
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const worker = async (): Promise<Worker> =>
    context
      .serviceWorkers()
      .find((candidate) => candidate.url().startsWith(`chrome-extension://${extensionId}/`)) ??
    context.waitForEvent('serviceworker', { timeout: 15_000 });
  const first = await worker();
  const id = new URL(first.url()).host;
  return {
    context,
    id,
    worker,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export interface Stack {
  readonly sandbox: RunningSandbox;
  readonly proxy: RunningProxy;
  close(): Promise<void>;
}

/** The sandbox and the proxy on random ports, tokens with a canary prefix, pages of `allowedOrigins` allowed. */
export async function startStack(
  allowedOrigins: readonly string[],
  sandboxOptions: ServeSandboxOptions = {},
): Promise<Stack> {
  const sandbox = await serveSandbox({
    apiPort: 0,
    authPort: 0,
    tokenPrefix: canaryPrefix,
    ...sandboxOptions,
  });
  const proxy = await serveProxy({
    port: 0,
    config: {
      platformApiUrl: sandbox.apiUrl,
      platformAuthUrl: sandbox.authUrl,
      allowInsecureRequests: true,
      allowedOrigins,
      extensionOrigins: [`chrome-extension://${extensionId}`],
      extensionRedirectUris: [extensionRedirectUri],
    },
  });
  return {
    sandbox,
    proxy,
    close: async () => {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** Points the extension at the stack through its options page, as a fan or partner would. */
export async function configureExtension(
  extension: LoadedExtension,
  settings: { proxyUrl: string; platformApiUrl: string; platformAuthUrl: string },
): Promise<void> {
  const page = await extension.context.newPage();
  await page.goto(`chrome-extension://${extension.id}/options.html`);
  for (const [name, value] of Object.entries(settings)) {
    await page.locator(`input[name="${name}"]`).fill(value);
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('options-message').filter({ hasText: 'Saved.' }).waitFor();
  await page.close();
}

/**
 * A page script that speaks the bridge protocol exactly as the widget's extension channel does:
 * `window.askExtension(request, timeoutMs)` resolves with the outcome (never throws), `window.seen` keeps every
 * message the page received.
 */
export const bridgePageScript = `
  window.seen = [];
  window.addEventListener('message', (event) => { window.seen.push(event.data); });
  window.askExtension = (request, timeoutMs = 5000) => new Promise((resolve) => {
    const requestId = crypto.randomUUID();
    const timer = setTimeout(() => { window.removeEventListener('message', onMessage); resolve({ timeout: true }); }, timeoutMs);
    function onMessage(event) {
      const data = event.data;
      if (event.source !== window || !data || data.source !== 'fan-polls-extension' || data.requestId !== requestId) return;
      clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      resolve(data.outcome);
    }
    window.addEventListener('message', onMessage);
    window.postMessage({ source: 'fan-polls-page', version: 1, requestId, request }, location.origin);
  });
`;

export interface PageServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves one HTML page (any path) on 127.0.0.1 at a random port: one origin per server. */
export async function servePage(body: string): Promise<PageServer> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => {
          done();
        });
      }),
  };
}

export function bridgePage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><script>${bridgePageScript}</script></body></html>`;
}

/** Answers the sandbox's consent page opened by `launchWebAuthFlow` (a page of the context); returns its URL. */
export async function completeConsent(
  context: BrowserContext,
  decision: 'allow' | 'deny',
  username = 'sam',
): Promise<string> {
  const consent = await context.waitForEvent('page', {
    predicate: (page: Page) => page.url().includes('/oauth2/authorize'),
    timeout: 15_000,
  });
  await consent.waitForLoadState('domcontentloaded');
  const authorizeUrl = consent.url();
  if (decision === 'allow') {
    await consent.locator('input[name="username"]').fill(username);
    await consent.locator('input[name="password"]').fill('fan-polls');
    await consent.locator('button.allow').click();
  } else {
    await consent.locator('button.deny').click();
  }
  return authorizeUrl;
}

/** Approves (or denies) a site in the extension's approval window. */
export async function answerApproval(context: BrowserContext, approve: boolean): Promise<string> {
  const window = await context.waitForEvent('page', {
    predicate: (page: Page) => page.url().includes('/approve.html'),
    timeout: 15_000,
  });
  const origin = await window.getByTestId('origin').textContent();
  await window.getByRole('button', { name: approve ? 'Allow' : 'Deny' }).click();
  return origin ?? '';
}
