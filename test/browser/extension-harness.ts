// Shared set-up of the extension's browser tests: the built extension in a fresh Chromium profile, the sandbox and
// the proxy on random ports, and small pages on loopback that talk the page-bridge protocol.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { extensionId, extensionRedirectUri } from '../../src/local-defaults.ts';
import type { Poll } from '../../src/platform/types.ts';
import type { ServeSandboxOptions } from '../../src/sandbox/serve.ts';
import { apiRequest, fanToken } from '../../src/sandbox/test-kit.ts';
import { launchWithExtension } from '../support/chromium.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { viteBuild } from '../support/vite-build.ts';

export const extensionDir = resolve(import.meta.dirname, '../../dist/extension/chrome');

/** `npm test` builds first; a lone run of these tests builds the Chromium extension when it is missing. */
export function ensureExtensionBuilt(): void {
  if (existsSync(join(extensionDir, 'manifest.json'))) return;
  viteBuild('extension-chrome');
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
  const context = await launchWithExtension(profile, extensionDir);
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

/** The sandbox and the proxy on random ports, pages of `allowedOrigins` and the extension allowed. */
export function startStack(
  allowedOrigins: readonly string[],
  sandboxOptions: ServeSandboxOptions = {},
): Promise<SandboxAndProxy> {
  return startSandboxAndProxy({
    sandbox: sandboxOptions,
    proxy: {
      config: {
        allowedOrigins,
        extensionOrigins: [`chrome-extension://${extensionId}`],
        extensionRedirectUris: [extensionRedirectUri],
      },
    },
  });
}

/** Points the extension at the stack through its options page, as a fan or partner would. */
export async function configureExtension(extension: LoadedExtension, stack: SandboxAndProxy): Promise<void> {
  const settings = {
    proxyUrl: stack.proxy.url,
    platformApiUrl: stack.sandbox.apiUrl,
    platformAuthUrl: stack.sandbox.authUrl,
  };
  const page = await extension.context.newPage();
  await page.goto(`chrome-extension://${extension.id}/options.html`);
  for (const [name, value] of Object.entries(settings)) {
    await page.locator(`input[name="${name}"]`).fill(value);
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('options-message').filter({ hasText: 'Saved.' }).waitFor();
  await page.close();
}

/** A seeded fan's polls (up to 100) as the platform lists them to the fan, read from the sandbox in-process. */
export async function pollsOfFan(stack: SandboxAndProxy, username: string): Promise<Poll[]> {
  const { sandbox } = stack.sandbox;
  const response = await apiRequest(
    sandbox,
    '/polls/1.0.8/user/polls?limit=100',
    fanToken(sandbox, username),
  );
  return ((await response.json()) as { data: Poll[] }).data;
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
  // The window closes itself on the answer, sometimes before the click action finishes: that race is not a failure.
  const closed = window.waitForEvent('close', { timeout: 15_000 });
  await window
    .getByRole('button', { name: approve ? 'Allow' : 'Deny' })
    .click()
    .catch((error: unknown) => {
      if (!window.isClosed()) throw error;
    });
  await closed;
  return origin ?? '';
}
