import { proxyRouteGroups } from './proxy-contract.ts';

/** The embed configurator's page on the proxy, and what the proxy tells it about itself. */
export const configuratorRoutes = {
  page: `${proxyRouteGroups.configurator}/`,
  settings: `${proxyRouteGroups.configurator}/settings.json`,
} as const;

/** `GET /configurator/settings.json`: nothing secret, only what pages can learn from the proxy anyway. */
export interface ConfiguratorSettings {
  /** The proxy's public URL (`FAN_POLLS_PUBLIC_URL`), no trailing slash: what snippets load from. */
  readonly proxyUrl: string;
  /** The widget version this proxy serves under `/widget/v<version>/`; undefined without a versioned build. */
  readonly version: string | undefined;
  /** `FAN_POLLS_ALLOWED_ORIGINS`: the pages that may embed (also in the iframe page's `frame-ancestors`). */
  readonly allowedOrigins: readonly string[];
  /** `FAN_POLLS_ALLOW_LOOPBACK_ORIGINS`: every page on this machine is allowed too (the sandbox's default). */
  readonly allowsLoopbackOrigins: boolean;
  /** A production proxy (platform URLs not on loopback): allowed origins must be https. */
  readonly production: boolean;
}
