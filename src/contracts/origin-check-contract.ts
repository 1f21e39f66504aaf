/**
 * `GET /api/origin`: whether the calling page's origin may use the proxy. Readable from any page (CORS `*`, no
 * credentials, nothing secret): a card or banner refused by CORS or `frame-ancestors` cannot tell why on its own, so
 * it asks here and names the setting to change.
 */
export const originCheckRoute = '/api/origin';

/** The proxy's setting that lists the pages allowed to embed. */
const allowedOriginsSetting = 'FAN_POLLS_ALLOWED_ORIGINS';

export interface OriginCheck {
  /** The page's origin as the proxy saw it (`Origin`), or null without one. */
  readonly origin: string | null;
  readonly allowed: boolean;
}

/** What the developer reads (console and the `origin-not-allowed` error's message). */
export function originRefusedMessage(origin: string, proxyUrl: string): string {
  return `Fan Polls: the proxy ${proxyUrl} does not allow this page's origin ${origin}. Add it to ${allowedOriginsSetting} (comma-separated) in the proxy's environment and restart it.`;
}
