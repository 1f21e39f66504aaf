import { proxyRoutes } from '../contracts/proxy-contract.ts';
import { proxyOptions, type ProxyOptions } from './config/config-table.ts';
import { crossCheck } from './config/cross-checks.ts';
import { choosePreset, presetSummary, sandboxHint } from './config/preset-choice.ts';
import { readOptions, type ConfigSource, type OptionValues } from './config/read-options.ts';

/** Table settings the proxy uses only through what is derived from them (below). */
type ReadOnlyToDerive = 'extensionIds' | 'extraExtensionOrigins' | 'extraExtensionRedirectUris';

/**
 * The proxy's settings, read once from the environment at start-up: every setting of the table
 * (`config/config-table.ts`, documented in docs/configuration.md) and what is derived from them. The sandbox preset
 * (the local sandbox with the demo application) applies only when chosen (`FAN_POLLS_PRESET=sandbox`); otherwise
 * every required setting must be set, over https, or start-up stops with a message naming every bad setting.
 */
export type ProxyConfig = Omit<OptionValues<ProxyOptions>, ReadOnlyToDerive> & {
  /** Plain http to the platform: only in the sandbox preset. */
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

  /** `preset`: which one applied and why; `hint`: a last line on what to do. */
  constructor(problems: readonly string[], { preset, hint }: { preset?: string; hint?: string } = {}) {
    const heading = `The proxy cannot start${preset === undefined ? '' : ` (preset: ${preset})`}:`;
    const lines = [
      heading,
      ...problems.map((problem) => `  - ${problem}`),
      ...(hint === undefined ? [] : [hint]),
    ];
    super(lines.join('\n'));
    this.problems = problems;
  }
}

/** Variables by name: `process.env`, or the bindings object of an edge runtime. */
export type ProxyEnvironment = ConfigSource;

/**
 * Chooses the preset, reads the table from `env` with its defaults, runs the cross-checks, and throws
 * `ProxyConfigError` listing every problem.
 */
export function loadProxyConfig(env: ProxyEnvironment): ProxyConfig {
  const choice = choosePreset(env);
  const { preset } = choice;
  const read = readOptions(proxyOptions, env, preset);
  const problems = [...choice.problems, ...read.problems, ...crossCheck(read, preset)];
  if (problems.length > 0)
    throw new ProxyConfigError(problems, {
      preset: presetSummary(choice),
      ...(choice.chosen ? {} : { hint: sandboxHint }),
    });
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
