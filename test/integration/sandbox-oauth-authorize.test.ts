// GET /oauth2/authorize and its login and consent page: what is refused and how, and the page's protections.
import { beforeEach, describe, expect, it } from 'vitest';
import { demoApplication, demoRedirectUris } from '../../src/local-defaults.ts';
import { answerConsent } from '../../src/sandbox/oauth/headless-consent.ts';
import { oauthChoices } from '../../src/sandbox/oauth/oauth-choices.ts';
import { recordedAuthorizations } from '../../src/sandbox/oauth/oauth-state.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { demoAuthorizeUrl, sandboxAuthorizationServer } from '../support/sandbox-oauth.ts';

const authUrl = 'http://127.0.0.1:4011';
const redirectUri = demoRedirectUris()[0]!;

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = createSandbox();
});
const inProcessFetch = (url: string, init?: RequestInit) => Promise.resolve(sandbox.auth.request(url, init));

function authorizeUrl(overrides: Record<string, string | null> = {}): string {
  return demoAuthorizeUrl(sandboxAuthorizationServer(authUrl), redirectUri, {
    state: 'state-123',
    ...overrides,
  }).toString();
}

function openForm(url = authorizeUrl()) {
  return sandbox.auth.request(url);
}

async function formOf(response: Response) {
  const html = await response.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  return { html, authorization: field('authorization'), nonce: field('nonce'), cookie };
}

function postDecision(fields: Record<string, string>, cookie: string) {
  return sandbox.auth.request(`${authUrl}${oauthChoices.decisionPath}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('refused without a redirect (error page, 400)', () => {
  it.each([
    ['an unknown client', { client_id: 'nobody' }, 'No application is registered'],
    ['no client_id', { client_id: null }, 'no client_id'],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }, 'not registered'],
    [
      'a redirect_uri that only starts like a registered one',
      { redirect_uri: `${redirectUri}/../x` },
      'not registered',
    ],
    ['a redirect_uri with an added query', { redirect_uri: `${redirectUri}?next=evil` }, 'not registered'],
    ['no redirect_uri', { redirect_uri: null }, 'no redirect_uri'],
  ])('%s', async (_name, overrides, message) => {
    const response = await openForm(authorizeUrl(overrides));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain(message);
    expect(recordedAuthorizations(sandbox.state)).toHaveLength(0);
  });

  it('escapes the client id it echoes', async () => {
    const response = await openForm(authorizeUrl({ client_id: '<img src=x onerror=alert(1)>' }));
    const html = await response.text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('refused back to the application (OAuth error redirect, state kept)', () => {
  it.each([
    [{ response_type: null }, 'invalid_request', 'Missing response_type parameter value'],
    [{ response_type: 'token' }, 'unsupported_response_type', 'Unsupported response_type value'],
    [{ partner_tag: null }, 'invalid_request', 'Missing partner_tag parameter value'],
    [{ partner_tag: 'someone-else' }, 'invalid_request', 'The partner_tag does not match the application'],
    [{ code_challenge_method: 'S256' }, 'invalid_request', 'PKCE Challenge is not provided'],
    [
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'S512' },
      'invalid_request',
      'Unsupported PKCE Challenge Method',
    ],
    [{ code_challenge: 'short' }, 'invalid_request', 'Code challenge used is not in the expected format'],
  ])('%o -> %s', async (overrides, error, description) => {
    const response = await openForm(authorizeUrl(overrides));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error,
      error_description: description,
      state: 'state-123',
    });
  });

  it('a repeated parameter', async () => {
    const response = await openForm(`${authorizeUrl()}&state=again`);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!).searchParams.get('error_description')).toBe(
      'Invalid request with repeated parameters.',
    );
  });
});

describe('the login and consent page', () => {
  it('shows the application, labelled fields and the demo fans, under a strict CSP', async () => {
    const response = await openForm();
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain(`form-action 'self' ${new URL(redirectUri).origin}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const cookie = response.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const html = await response.text();
    expect(html).toContain(demoApplication.name);
    expect(html).toContain('<label for="username">');
    expect(html).toContain('<label for="password">');
    expect(html).toContain('alex');
    expect(html).not.toMatch(/<script/i);
    const styleNonce = /style-src 'nonce-([^']+)'/.exec(csp)![1]!;
    expect(html).toContain(`<style nonce="${styleNonce}">`);
  });

  it('escapes the application name', async () => {
    sandbox.state.applications.register({
      clientId: 'sneaky',
      clientSecret: 's',
      partnerTag: 'sneaky',
      name: '<script>alert("x")</script>',
      redirectUris: [redirectUri],
      subscribed: true,
    });
    const response = await openForm(authorizeUrl({ client_id: 'sneaky', partner_tag: 'sneaky' }));
    const html = await response.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('re-shows the form with a message on a wrong password, then accepts the right one', async () => {
    const form = await formOf(await openForm());
    const wrong = await postDecision(
      {
        authorization: form.authorization,
        nonce: form.nonce,
        decision: 'allow',
        username: 'alex',
        password: 'nope',
      },
      form.cookie,
    );
    expect(wrong.status).toBe(401);
    const html = await wrong.text();
    expect(html).toContain('Wrong username or password');
    expect(html).toContain('value="alex"');
    const right = await postDecision(
      {
        authorization: form.authorization,
        nonce: form.nonce,
        decision: 'allow',
        username: 'alex',
        password: 'fan-polls',
      },
      form.cookie,
    );
    expect(right.status).toBe(302);
    expect(new URL(right.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('refuses a forged form: wrong nonce, or no cookie from the browser that opened the page', async () => {
    const form = await formOf(await openForm());
    const fields = {
      authorization: form.authorization,
      decision: 'allow',
      username: 'alex',
      password: 'fan-polls',
    };
    expect((await postDecision({ ...fields, nonce: 'guessed' }, form.cookie)).status).toBe(403);
    expect((await postDecision({ ...fields, nonce: form.nonce }, '')).status).toBe(403);
    expect((await postDecision({ ...fields, nonce: form.nonce }, form.cookie)).status).toBe(302);
  });

  it('answers a form only once, and not after the pending authorization expired', async () => {
    const form = await formOf(await openForm());
    const fields = { authorization: form.authorization, nonce: form.nonce, decision: 'deny' };
    expect((await postDecision(fields, form.cookie)).status).toBe(302);
    const again = await postDecision(fields, form.cookie);
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();

    sandbox.state.clock.freeze();
    const late = await formOf(await openForm());
    sandbox.state.clock.advance(oauthChoices.pendingAuthorizationSeconds * 1000);
    const expired = await postDecision(
      { authorization: late.authorization, nonce: late.nonce, decision: 'deny' },
      late.cookie,
    );
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('expired');
  });

  it('answers a decision that is neither allow nor deny with an error page', async () => {
    const form = await formOf(await openForm());
    const response = await postDecision(
      { authorization: form.authorization, nonce: form.nonce, decision: 'maybe' },
      form.cookie,
    );
    expect(response.status).toBe(400);
  });

  it('keeps the registered redirect URI’s own query when adding the code', async () => {
    const withQuery = 'http://127.0.0.1:5999/cb?tenant=a';
    sandbox = createSandbox({ extraRedirectUris: [withQuery] });
    const outcome = await answerConsent(inProcessFetch, authorizeUrl({ redirect_uri: withQuery }), {
      decision: 'allow',
    });
    const location = new URL((outcome as { location: string }).location);
    expect(location.searchParams.get('tenant')).toBe('a');
    expect(location.searchParams.get('code')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('returns the wrong-password page through answerConsent rather than a redirect', async () => {
    const outcome = await answerConsent(inProcessFetch, authorizeUrl(), {
      decision: 'allow',
      username: 'alex',
      password: 'x',
    });
    expect(outcome).toMatchObject({ kind: 'page', status: 401 });
  });
});
