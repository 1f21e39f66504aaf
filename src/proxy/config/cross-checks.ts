// Rules that involve several settings, run after the table is read: which preset applies, and what production
// needs beyond each setting's own rule. Each rule's `doc` is listed in docs/configuration.md.
import { proxyOptions as options, type ProxyOptions } from './config-table.ts';
import { isLoopbackUrl as isLoopback } from '../../contracts/loopback.ts';
import type { Preset } from './option-kinds.ts';
import { readOption, type ConfigSource, type ReadOptions } from './read-options.ts';

/** The sandbox preset when both platform URLs (as set, else their defaults) are loopback; production otherwise. */
export function presetOf(source: ConfigSource): Preset {
  const onLoopback = (option: typeof options.platformApiUrl) =>
    isLoopback(readOption(option, source, 'production').value);
  return onLoopback(options.platformApiUrl) && onLoopback(options.platformAuthUrl) ? 'sandbox' : 'production';
}

export interface CrossCheck {
  /** The rule, for the docs. */
  readonly doc: string;
  /** One sentence per breach, naming the variables. */
  readonly problems: (read: ReadOptions<ProxyOptions>, preset: Preset) => readonly string[];
}

const { platformApiUrl, platformAuthUrl, allowedOrigins, redisUrl, tokenEncryptionKey } = options;
const { trustedProxyHops, clientAddressHeader } = options;

export const crossChecks: readonly CrossCheck[] = [
  {
    doc: `In production, \`${platformApiUrl.env}\` and \`${platformAuthUrl.env}\` must be https.`,
    problems: ({ values }, preset) => {
      const platform: [string, string][] = [
        [platformApiUrl.env, values.platformApiUrl],
        [platformAuthUrl.env, values.platformAuthUrl],
      ];
      return preset === 'sandbox'
        ? []
        : platform
            .filter(([, url]) => !url.startsWith('https://'))
            .map(([env]) => `${env} must be an https URL for a platform that is not on loopback.`);
    },
  },
  {
    doc: `In production, every origin in \`${allowedOrigins.env}\` must be https.`,
    problems: ({ values }, preset) =>
      preset === 'sandbox'
        ? []
        : values.allowedOrigins
            .filter((origin) => !origin.startsWith('https://'))
            .map((origin) => `${allowedOrigins.env}: "${origin}" must be https.`),
  },
  {
    doc: `In production, \`${tokenEncryptionKey.env}\` is required with \`${redisUrl.env}\` (tokens are encrypted at rest).`,
    problems: ({ values }, preset) =>
      preset === 'production' && values.redisUrl !== undefined && values.tokenEncryptionKey === undefined
        ? [`${tokenEncryptionKey.env} is required with ${redisUrl.env} (tokens are encrypted at rest).`]
        : [],
  },
  {
    doc: `\`${trustedProxyHops.env}\` needs \`${clientAddressHeader.env}\` (the header the hops write).`,
    problems: ({ values, set }) =>
      set.has('trustedProxyHops') && values.clientAddressHeader === undefined
        ? [`${trustedProxyHops.env} needs ${clientAddressHeader.env} (the header the hops write).`]
        : [],
  },
];

/** Every cross-check's problems, in order. */
export function crossCheck(read: ReadOptions<ProxyOptions>, preset: Preset): string[] {
  return crossChecks.flatMap((check) => check.problems(read, preset));
}
