// Rules that involve several settings, run after the table is read: what each preset needs beyond each setting's
// own rule. Each rule's `doc` is listed in docs/configuration.md.
import { proxyOptions as options, type ProxyOptions } from './config-table.ts';
import { isLoopbackUrl as isLoopback } from '../../contracts/loopback.ts';
import type { Preset } from './option-kinds.ts';
import { shareTargetProblem } from '../../contracts/share-contract.ts';
import type { ReadOptions } from './read-options.ts';

export interface CrossCheck {
  /** The rule, for the docs. */
  readonly doc: string;
  /** One sentence per breach, naming the variables. */
  readonly problems: (read: ReadOptions<ProxyOptions>, preset: Preset) => readonly string[];
}

const {
  preset: presetOption,
  platformApiUrl,
  platformAuthUrl,
  allowedOrigins,
  allowLoopbackOrigins,
} = options;
const { redisUrl, tokenEncryptionKey, trustedProxyHops, clientAddressHeader } = options;
const { shareTarget } = options;

/** Each platform URL's variable and value. */
const platformUrls = ({ values }: ReadOptions<ProxyOptions>): [string, string][] => [
  [platformApiUrl.env, values.platformApiUrl],
  [platformAuthUrl.env, values.platformAuthUrl],
];

export const crossChecks: readonly CrossCheck[] = [
  {
    doc: `In production, \`${platformApiUrl.env}\` and \`${platformAuthUrl.env}\` must be https (plain http to the platform only in the sandbox preset).`,
    problems: (read, preset) =>
      preset === 'sandbox'
        ? []
        : platformUrls(read)
            .filter(([, url]) => !url.startsWith('https://'))
            .map(([env]) => `${env} must be an https URL in production.`),
  },
  {
    doc: `In the sandbox preset, \`${platformApiUrl.env}\` and \`${platformAuthUrl.env}\` must be on loopback (the local sandbox).`,
    problems: (read, preset) =>
      preset === 'production'
        ? []
        : platformUrls(read)
            .filter(([, url]) => !isLoopback(url))
            .map(
              ([env]) =>
                `${env} must be on loopback with ${presetOption.env}=sandbox (the sandbox preset is for the local sandbox only).`,
            ),
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
    doc: `In production, \`${allowLoopbackOrigins.env}\` cannot be \`true\`: list each page's origin in \`${allowedOrigins.env}\`.`,
    problems: ({ values }, preset) =>
      preset === 'production' && values.allowLoopbackOrigins
        ? [
            `${allowLoopbackOrigins.env}=true is for the sandbox preset only: in production, list each page's origin in ${allowedOrigins.env}.`,
          ]
        : [],
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
  {
    doc: `\`${shareTarget.env}\` must be https; plain http only to a loopback host in the sandbox preset.`,
    problems: ({ values }, preset) => {
      const loopbackHttp = (url: URL) => preset === 'sandbox' && isLoopback(url.href);
      return values.shareTarget !== undefined &&
        shareTargetProblem(values.shareTarget, loopbackHttp) !== undefined
        ? [`${shareTarget.env} must be https (plain http only on loopback in the sandbox preset).`]
        : [];
    },
  },
];

/** Every cross-check's problems, in order. */
export function crossCheck(read: ReadOptions<ProxyOptions>, preset: Preset): string[] {
  return crossChecks.flatMap((check) => check.problems(read, preset));
}
