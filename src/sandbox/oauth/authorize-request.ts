import type { ApplicationRegistry, RegisteredApplication } from '../applications.ts';
import { oauthChoices } from './oauth-choices.ts';
import { isWellFormedPkceValue, type PkceMethod } from './pkce.ts';
import { trackingParameterNames, type TrackingParameters } from './oauth-state.ts';

/** A valid authorize request, ready to show the login and consent page. */
export interface AuthorizeRequest {
  readonly application: RegisteredApplication;
  readonly redirectUri: string;
  readonly partnerTag: string;
  readonly state: string | undefined;
  readonly codeChallenge: string | undefined;
  readonly codeChallengeMethod: PkceMethod | undefined;
  readonly tracking: TrackingParameters;
}

export type AuthorizeValidation =
  | { readonly kind: 'valid'; readonly request: AuthorizeRequest }
  /** The client or its redirect cannot be trusted: an error page, never a redirect. */
  | { readonly kind: 'error-page'; readonly message: string }
  /** The redirect is trusted: the error goes back to the application, OAuth style (RFC 6749 §4.1.2.1). */
  | {
      readonly kind: 'redirect-error';
      readonly redirectUri: string;
      readonly error: 'invalid_request' | 'unsupported_response_type';
      readonly description: string;
      readonly state: string | undefined;
    };

/** Parameters whose repetition makes the request ambiguous. */
const singleValued = [
  'response_type',
  'client_id',
  'redirect_uri',
  'partner_tag',
  'state',
  'code_challenge',
  'code_challenge_method',
  ...trackingParameterNames,
] as const;

/** Checks `GET /oauth2/authorize` in the order that decides whether it is safe to redirect back at all. */
export function validateAuthorizeRequest(
  registry: ApplicationRegistry,
  query: URLSearchParams,
): AuthorizeValidation {
  const clientIds = query.getAll('client_id');
  const redirectUris = query.getAll('redirect_uri');
  const clientId = clientIds[0];
  if (clientId === undefined || clientId === '') {
    return { kind: 'error-page', message: 'The request has no client_id.' };
  }
  if (clientIds.length > 1)
    return { kind: 'error-page', message: 'The request has more than one client_id.' };
  const application = registry.find(clientId);
  if (!application) {
    return { kind: 'error-page', message: `No application is registered with the client_id "${clientId}".` };
  }
  const redirectUri = redirectUris[0];
  if (redirectUri === undefined || redirectUri === '') {
    return { kind: 'error-page', message: 'The request has no redirect_uri.' };
  }
  if (redirectUris.length > 1 || !application.redirectUris.includes(redirectUri)) {
    return {
      kind: 'error-page',
      message: `The redirect_uri is not registered for the application "${application.name}".`,
    };
  }

  const state = query.get('state') ?? undefined;
  const redirectError = (
    error: 'invalid_request' | 'unsupported_response_type',
    description: string,
  ): AuthorizeValidation => ({ kind: 'redirect-error', redirectUri, error, description, state });

  if (singleValued.some((name) => query.getAll(name).length > 1)) {
    return redirectError('invalid_request', 'Invalid request with repeated parameters.');
  }
  const responseType = query.get('response_type');
  if (!responseType) return redirectError('invalid_request', 'Missing response_type parameter value');
  if (responseType !== 'code')
    return redirectError('unsupported_response_type', 'Unsupported response_type value');
  const partnerTag = query.get('partner_tag');
  if (!partnerTag) return redirectError('invalid_request', 'Missing partner_tag parameter value');
  if (partnerTag !== application.partnerTag) {
    return redirectError('invalid_request', 'The partner_tag does not match the application');
  }

  const codeChallenge = query.get('code_challenge') ?? undefined;
  const methodParameter = query.get('code_challenge_method') ?? undefined;
  let codeChallengeMethod: PkceMethod | undefined;
  if (codeChallenge === undefined) {
    if (methodParameter !== undefined)
      return redirectError('invalid_request', 'PKCE Challenge is not provided');
  } else {
    const method = methodParameter ?? 'plain';
    if (!isPkceMethod(method)) return redirectError('invalid_request', 'Unsupported PKCE Challenge Method');
    if (!isWellFormedPkceValue(codeChallenge)) {
      return redirectError('invalid_request', 'Code challenge used is not in the expected format');
    }
    codeChallengeMethod = method;
  }

  const tracking: Record<string, string> = {};
  for (const name of trackingParameterNames) {
    const value = query.get(name);
    if (value !== null) tracking[name] = value;
  }
  return {
    kind: 'valid',
    request: { application, redirectUri, partnerTag, state, codeChallenge, codeChallengeMethod, tracking },
  };
}

function isPkceMethod(value: string): value is PkceMethod {
  return (oauthChoices.pkceMethods as readonly string[]).includes(value);
}

/** The redirect URI with OAuth response parameters added (keeping any query it already has). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}
