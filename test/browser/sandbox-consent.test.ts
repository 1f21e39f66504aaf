// The sandbox's login and consent page in real Chromium: sign in and allow, a wrong password, deny.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { demoApplication } from '../../src/local-defaults.ts';
import { recordedAuthorizations } from '../../src/sandbox/oauth/oauth-state.ts';
import { serveSandbox, type RunningSandbox } from '../../src/sandbox/serve.ts';
import { launchBrowser } from '../support/chromium.ts';
import { servePage, type PageServer } from '../support/page-server.ts';
import { demoAuthorizeUrl, sandboxAuthorizationServer } from '../support/sandbox-oauth.ts';

let browser: Browser;
let running: RunningSandbox;
let callbackServer: PageServer;
let callbackUri: string;
let page: Page;
let cspViolations: string[];

beforeAll(async () => {
  // A stand-in for the partner's callback: any page on loopback that the redirect can land on.
  callbackServer = await servePage('<!doctype html><title>callback</title><p>back</p>');
  callbackUri = `${callbackServer.url}/auth/callback`;
  running = await serveSandbox({ apiPort: 0, authPort: 0, extraRedirectUris: [callbackUri] });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser.close();
  await running.close();
  await callbackServer.close();
});

beforeEach(async () => {
  page = await browser.newPage();
  cspViolations = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
});
afterEach(async () => {
  await page.close();
});

function authorizeUrl(state: string): string {
  return demoAuthorizeUrl(sandboxAuthorizationServer(running.authUrl), callbackUri, {
    state,
    referrer: 'browser-test',
  }).toString();
}

describe('consent page in Chromium', () => {
  it('signs a fan in and lands on the redirect URI with a code and the state', async () => {
    await page.goto(authorizeUrl('allow-state'));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain(
      demoApplication.name,
    );
    // The nonce'd stylesheet applied: the card is styled.
    const radius = await page
      .locator('main')
      .evaluate((element) => getComputedStyle(element).borderTopLeftRadius);
    expect(radius).toBe('16px');
    await page.getByLabel('Username').fill('alex');
    await page.getByLabel('Password').fill('fan-polls');
    await page.getByText('Demo fans').click();
    await expect(page.getByText('Alex (holds RIV)').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: '/tmp/consent.png', fullPage: true });
    await Promise.all([
      page.waitForURL((url) => url.toString().startsWith(callbackUri)),
      page.getByRole('button', { name: 'Sign in and allow' }).click(),
    ]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('allow-state');
    expect(landed.searchParams.get('code')).toMatch(/\S{16,}/);
    expect(cspViolations).toEqual([]);
    expect(recordedAuthorizations(running.sandbox.state).at(-1)).toMatchObject({
      outcome: 'allowed',
      tracking: { referrer: 'browser-test' },
    });
  });

  it('shows an alert on a wrong password and keeps the fan on the page', async () => {
    await page.goto(authorizeUrl('retry-state'));
    await page.getByLabel('Username').fill('alex');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in and allow' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Wrong username or password');
    expect(page.url().startsWith(running.authUrl)).toBe(true);
    await page.getByLabel('Password').fill('fan-polls');
    // Enter submits with the first button, which must be Allow, not Deny.
    await Promise.all([
      page.waitForURL((url) => url.toString().startsWith(callbackUri)),
      page.getByLabel('Password').press('Enter'),
    ]);
    expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
  });

  it('deny sends the fan back with access_denied, without asking for a password', async () => {
    await page.goto(authorizeUrl('deny-state'));
    await Promise.all([
      page.waitForURL((url) => url.toString().startsWith(callbackUri)),
      page.getByRole('button', { name: 'Deny' }).click(),
    ]);
    const landed = new URL(page.url());
    expect(cspViolations).toEqual([]);
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'User denied the consent',
      state: 'deny-state',
    });
  });

  it('shows an error page, not a redirect, for an unregistered redirect URI', async () => {
    const url = new URL(authorizeUrl('x'));
    url.searchParams.set('redirect_uri', 'http://127.0.0.1:1/elsewhere');
    const response = await page.goto(url.toString());
    expect(response?.status()).toBe(400);
    expect(page.url().startsWith(running.authUrl)).toBe(true);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not registered');
  });
  it('has no axe-core violations (the form, the retry alert)', async () => {
    // axe is injected as a script, which the page's CSP rightly forbids: a separate page that bypasses it.
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const auditPage = await browser.newPage({ bypassCSP: true });
    try {
      await auditPage.goto(authorizeUrl('audit-state'));
      await auditPage.getByLabel('Username').fill('alex');
      await auditPage.getByLabel('Password').fill('wrong');
      await auditPage.getByRole('button', { name: 'Sign in and allow' }).click();
      await auditPage.getByRole('alert').waitFor();
      await auditPage.addScriptTag({ content: axeSource });
      const violations = await auditPage.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: () => Promise<{ violations: { id: string }[] }> } })
          .axe;
        return (await axe.run()).violations.map((violation) => violation.id);
      });
      expect(violations).toEqual([]);
    } finally {
      await auditPage.close();
    }
  });
});
