import { proxyRoutes } from '../contracts/proxy-contract.ts';
import { proxyOptions, type ProxyOptions } from './config/config-table.ts';
import { crossCheck, presetOf } from './config/cross-checks.ts';
import { readOptions, type ConfigSource, type OptionValues } from './config/read-options.ts';

/** Table settings the proxy uses only through what is derived from them (below). */
type ReadOnlyToDerive = 'extensionIds' | 'extraExtensionOrigins' | 'extraExtensionRedirectUris';

/**
 * The proxy's settings, read once from the environment at start-up: every setting of the table
 * (`config/config-table.ts`, documented in docs/configuration.md) and what is derived from them. With nothing set it
 * runs against the local sandbox with the demo application; anything pointing at a non-loopback platform must be
 * set explicitly, over https, or start-up stops with a message naming every bad setting.
 */
export type ProxyConfig = Omit<OptionValues<ProxyOptions>, ReadOnlyToDerive> & {
  /** Plain http to the platform: only when both platform URLs are loopback (the sandbox). */
  readonly allowInsecureRequests: boolean;
  /** `${publicUrl}/auth/callback`: must be registered with the platform application. */
  readonly callbackUrl: string;
  /** Origins the extension calls from: `chrome-extension://<id>` and configured `moz-extension://<uuid>`. */
  readonly extensionOrigins: readonly string[];
  /** `https://<id>.chromiumapp.org/` for each Chrome id, plus FAN_POLLS_EXTENSION_REDIRECT_URIS. */
  readonly extensionRedirectUris: readonly string[];
};

export class ProxyConfigError extends Error {
  override readonly name = 'ProxyConfigError';
  readonly code = 'invalid_config';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`The proxy cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Variables by name: `process.env`, or the bindings object of an edge runtime. */
export type ProxyEnvironment = ConfigSource;

/** Reads the table from `env`, runs the cross-checks, and throws `ProxyConfigError` listing every problem. */
export function loadProxyConfig(env: ProxyEnvironment): ProxyConfig {
  const preset = presetOf(env);
  const read = readOptions(proxyOptions, env, preset);
  const problems = [...read.problems, ...crossCheck(read, preset)];
  if (problems.length > 0) throw new ProxyConfigError(problems);
  const { extensionIds, extraExtensionOrigins, extraExtensionRedirectUris, ...settings } = read.values;
  return {
    ...settings,
    allowInsecureRequests: preset === 'sandbox',
    callbackUrl: `${settings.publicUrl}${proxyRoutes.signInCallback}`,
    extensionOrigins: [...extensionIds.map((id) => `chrome-extension://${id}`), ...extraExtensionOrigins],
    extensionRedirectUris: [
      ...extensionIds.map((id) => `https://${id}.chromiumapp.org/`),
      ...extraExtensionRedirectUris,
    ],
  };
}
