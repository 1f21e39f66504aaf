import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { demoPassword, fans, findFanByUsername } from '../data/fans.ts';
import type { SandboxState } from '../sandbox-state.ts';
import { redirectWith, validateAuthorizeRequest } from './authorize-request.ts';
import { pageHeaders, renderConsentPage, renderErrorPage } from './consent-page.ts';
import { readFormParams } from './form-params.ts';
import { oauthChoices } from './oauth-choices.ts';
import { oauthStateOf, type PendingAuthorization } from './oauth-state.ts';

/** `GET /oauth2/authorize` and the login and consent form it shows, posted to `POST /oauth2/authorize/decision`. */
export function registerAuthorizeRoutes(app: Hono, sandbox: SandboxState): void {
  const server = oauthStateOf(sandbox);

  app.get('/oauth2/authorize', (c) => {
    const validation = validateAuthorizeRequest(sandbox.applications, new URL(c.req.url).searchParams);
    if (validation.kind === 'error-page')
      return errorPage(c, 400, 'This sign-in link is not valid', validation.message);
    if (validation.kind === 'redirect-error') {
      return redirect(
        c,
        redirectWith(validation.redirectUri, {
          error: validation.error,
          error_description: validation.description,
          state: validation.state,
        }),
      );
    }
    const { request } = validation;
    const pending = server.startAuthorization({
      clientId: request.application.clientId,
      partnerTag: request.partnerTag,
      redirectUri: request.redirectUri,
      state: request.state,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      tracking: request.tracking,
    });
    setCookie(c, consentCookieName(pending), pending.nonce, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/oauth2/authorize',
      maxAge: oauthChoices.pendingAuthorizationSeconds,
    });
    return consentPage(c, 200, pending, request.application.name);
  });

  app.post(oauthChoices.decisionPath, async (c) => {
    const form = await readFormParams(c.req.raw);
    if (!form.ok) return errorPage(c, 400, 'This sign-in form is not valid', 'The form could not be read.');
    const pending = server.findPending(form.params.get('authorization') ?? '');
    if (!pending) {
      return errorPage(
        c,
        400,
        'This sign-in request has ended',
        'It expired or was already answered. Start again from the application.',
      );
    }
    const formNonce = form.params.get('nonce') ?? '';
    const cookieNonce = getCookie(c, consentCookieName(pending)) ?? '';
    if (!sameValue(pending.nonce, formNonce) || !sameValue(pending.nonce, cookieNonce)) {
      return errorPage(
        c,
        403,
        'This sign-in form is not valid',
        'The form was not sent from the sign-in page this browser opened.',
      );
    }
    const application = sandbox.applications.find(pending.clientId);
    const decision = form.params.get('decision');
    if (decision === 'deny') {
      server.deny(pending);
      deleteCookie(c, consentCookieName(pending), { path: '/oauth2/authorize' });
      return redirect(
        c,
        redirectWith(pending.redirectUri, {
          error: 'access_denied',
          error_description: 'User denied the consent',
          state: pending.state,
        }),
      );
    }
    if (decision !== 'allow' || !application) {
      return errorPage(c, 400, 'This sign-in form is not valid', 'Choose Allow or Deny.');
    }
    const username = (form.params.get('username') ?? '').trim();
    const fan = findFanByUsername(username);
    if (!fan || !sameValue(fan.password, form.params.get('password') ?? '')) {
      return consentPage(c, 401, pending, application.name, {
        errorMessage: 'Wrong username or password. Try again.',
        username,
      });
    }
    const issued = server.allow(pending, fan.userId);
    deleteCookie(c, consentCookieName(pending), { path: '/oauth2/authorize' });
    return redirect(c, redirectWith(pending.redirectUri, { code: issued.code, state: pending.state }));
  });
}

function consentPage(
  c: Context,
  status: 200 | 401,
  pending: PendingAuthorization,
  applicationName: string,
  retry?: { errorMessage: string; username: string },
) {
  const styleNonce = newStyleNonce();
  return c.html(
    renderConsentPage({
      applicationName,
      redirectHost: new URL(pending.redirectUri).host || pending.redirectUri,
      authorizationId: pending.id,
      nonce: pending.nonce,
      styleNonce,
      demoFans: fans.map(({ username, displayName }) => ({ username, displayName })),
      demoPassword,
      ...retry,
    }),
    status,
    pageHeaders(styleNonce, pending.redirectUri),
  );
}

function errorPage(c: Context, status: 400 | 403, title: string, message: string) {
  const styleNonce = newStyleNonce();
  return c.html(renderErrorPage({ title, message, styleNonce }), status, pageHeaders(styleNonce));
}

function redirect(c: Context, location: string) {
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(location, 302);
}

function consentCookieName(pending: PendingAuthorization): string {
  return `${oauthChoices.consentCookiePrefix}${pending.id}`;
}

function newStyleNonce(): string {
  return randomBytes(16).toString('base64');
}

function sameValue(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}
