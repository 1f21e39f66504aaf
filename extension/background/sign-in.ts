import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import { isPlatformError } from '../../src/platform/errors.ts';
import { createAuthorizationRequest, validateCallback } from '../../src/platform/oauth.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { ExtensionSettings } from '../shared/settings.ts';
import type { FanSession } from './fan-session.ts';
import type { ProxyTokenClient } from './proxy-token-client.ts';

/** The part of `browser.identity` sign-in uses. */
export interface IdentityLike {
  getRedirectURL(): string;
  launchWebAuthFlow(details: { url: string; interactive: boolean }): Promise<string | undefined>;
}

export interface SignInDependencies {
  readonly identity: IdentityLike;
  readonly settings: () => Promise<ExtensionSettings>;
  readonly proxy: Pick<ProxyTokenClient, 'exchangeCode'>;
  readonly session: FanSession;
  /** Asks the platform who signed in; a failure here does not undo the sign-in. */
  readonly currentUserId: () => Promise<string>;
}

/**
 * Signs the fan in from the service worker (never the popup, which closes when the sign-in window takes focus): the
 * platform's authorize page in `launchWebAuthFlow` (state, PKCE S256, partner_tag, the card's tracking parameters),
 * the callback checked, then the code and verifier to the proxy, which adds the secret. Nothing is stored until the
 * proxy answered with tokens, so refusal and every failure leave a clear state.
 */
export async function signIn(deps: SignInDependencies, tracking: TrackingParameters = {}): Promise<void> {
  const settings = await deps.settings();
  const redirectUri = deps.identity.getRedirectURL();
  const request = await createAuthorizationRequest({
    authUrl: settings.platformAuthUrl,
    clientId: settings.clientId,
    partnerTag: settings.partnerTag,
    redirectUri,
    tracking,
  });
  let callback: string | undefined;
  try {
    callback = await deps.identity.launchWebAuthFlow({ url: request.url.href, interactive: true });
  } catch (cause) {
    // Chromium and Firefox reject when the fan closes the window (or the page never redirects back).
    throw new ExtensionError('access_denied', 'The sign-in window was closed before signing in.', { cause });
  }
  if (callback === undefined || !URL.canParse(callback) || !callback.startsWith(redirectUri)) {
    throw new ExtensionError('sign_in_failed', 'The sign-in did not come back to the extension.');
  }
  let code: string;
  try {
    const checkedAgainst = { authUrl: settings.platformAuthUrl, clientId: settings.clientId };
    ({ code } = validateCallback(checkedAgainst, new URL(callback), request.state));
  } catch (cause) {
    if (isPlatformError(cause, 'access_denied')) {
      throw new ExtensionError('access_denied', 'Sign-in was cancelled on the platform.', { cause });
    }
    throw new ExtensionError('sign_in_failed', 'The sign-in answer did not match this sign-in.', { cause });
  }
  const tokens = await deps.proxy.exchangeCode({ code, codeVerifier: request.codeVerifier, redirectUri });
  await deps.session.accept(tokens);
  try {
    await deps.session.rememberUserId(await deps.currentUserId());
  } catch {
    // The user id is shown in the popup only; the session is good without it and the popup asks again.
  }
}
