/**
 * Every choice the sandbox's OAuth server makes where platform-notes.md is silent, in one place. The README's
 * sandbox section mirrors these; change a value here when the truth about the real key manager is known.
 */
export const oauthChoices = {
  /** How long the login and consent page stays usable after `GET /oauth2/authorize`. */
  pendingAuthorizationSeconds: 600,
  /** The only scope WSO2 reports when none is requested. */
  scope: 'default',
  /** WSO2 sends `Bearer` with a capital B. */
  tokenType: 'Bearer',
  /** Header plus body credentials (RFC 6749 §2.3 forbids both): WSO2's BasicAuthClientAuthenticator answer. */
  bothClientAuthentications: {
    status: 400,
    error: 'invalid_request',
    description: 'Request body and headers contain authorization information',
  },
  /** PKCE methods accepted on authorize; `plain` is the default when `code_challenge_method` is absent (RFC 7636). */
  pkceMethods: ['S256', 'plain'] as const,
  /** Path the login and consent form posts to. */
  decisionPath: '/oauth2/authorize/decision',
  /** Cookie binding the consent form to the browser that opened it (name prefix; the authorization id follows). */
  consentCookiePrefix: 'fan_polls_consent_',
} as const;
