// A partner's own extension from one file: `FAN_POLLS_EXTENSION_CONFIG=path/extension.config.json npm run
// build:extension` (or `extension.config.json` at the root). What it names goes into the manifest (name, icons,
// host permissions, Firefox id) and the Options defaults; a combination that cannot work stops the build.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isLoopbackOrigin } from '../../src/contracts/loopback-origins.ts';
import type { ExtensionSettings } from '../shared/settings.ts';

export interface PartnerExtensionConfig {
  /** The store name (at most 45 characters). */
  readonly name: string;
  /** Under the toolbar icon (at most 12 characters). */
  readonly shortName: string;
  /** A folder holding `icon-16.png`, `icon-32.png`, `icon-48.png` and `icon-128.png` (relative to the file). */
  readonly icons: string;
  readonly proxyUrl: string;
  /** `{auth_url}`: the platform's OAuth server. */
  readonly platformAuthUrl: string;
  /** `{base_url}`: the platform's resource API (default: the authorization URL's origin). */
  readonly platformApiUrl?: string;
  readonly clientId: string;
  readonly partnerTag: string;
  /** The id addons.mozilla.org lists the add-on under (`name@domain` or `{uuid}`). */
  readonly firefoxAddonId: string;
}

const iconSizes = [16, 32, 48, 128] as const;

/** The partner configuration's path: `FAN_POLLS_EXTENSION_CONFIG`, else `extension.config.json` when it exists. */
export function partnerConfigPath(root: string, env: NodeJS.ProcessEnv): string | undefined {
  const named = env['FAN_POLLS_EXTENSION_CONFIG']?.trim();
  if (named) return resolve(root, named);
  const usual = resolve(root, 'extension.config.json');
  return existsSync(usual) ? usual : undefined;
}

/** Why a service URL cannot work: https anywhere, plain http on this machine only, an origin with no path. */
function urlProblem(field: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return `${field} is missing.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} "${value}" is not a URL.`;
  }
  if (url.protocol === 'http:' && !isLoopbackOrigin(url.origin))
    return `${field} "${value}" is plain http on another machine: browsers and the stores need https (http is for localhost only).`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${field} "${value}" is not http(s).`;
  if (url.pathname !== '/' || url.search || url.hash || url.username)
    return `${field} "${value}" must be an origin only (no path, query or credentials).`;
  return undefined;
}

/** Every reason `value` cannot make a working extension; empty when it can. `folder` resolves the icons. */
export function partnerConfigProblems(value: Record<string, unknown>, folder: string): string[] {
  const problems: string[] = [];
  const text = (field: string, max: number): void => {
    const item = value[field];
    if (typeof item !== 'string' || item.trim() === '') problems.push(`${field} is missing.`);
    else if (item.length > max) problems.push(`${field} is longer than ${max} characters.`);
  };
  text('name', 45);
  text('shortName', 12);
  text('clientId', 100);
  text('partnerTag', 100);
  for (const field of ['proxyUrl', 'platformAuthUrl'])
    problems.push(...[urlProblem(field, value[field])].filter((problem) => problem !== undefined));
  if (value['platformApiUrl'] !== undefined) {
    const problem = urlProblem('platformApiUrl', value['platformApiUrl']);
    if (problem) problems.push(problem);
  }
  const id = value['firefoxAddonId'];
  if (
    typeof id !== 'string' ||
    !/^([\w.+-]+@[\w.-]+|\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\})$/i.test(id)
  )
    problems.push('firefoxAddonId must be name@domain or a {uuid} (the id the add-on is listed under).');
  if (typeof value['icons'] !== 'string')
    problems.push('icons (a folder of icon-16/32/48/128.png) is missing.');
  else
    for (const size of iconSizes)
      if (!existsSync(resolve(folder, value['icons'], `icon-${size}.png`)))
        problems.push(`icons: ${resolve(folder, value['icons'], `icon-${size}.png`)} does not exist.`);
  return problems;
}

/** Reads and checks the file; throws with every problem at once. */
export function readPartnerConfig(path: string): PartnerExtensionConfig & { readonly iconsFolder: string } {
  const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const folder = resolve(path, '..');
  const problems = partnerConfigProblems(value, folder);
  if (problems.length > 0)
    throw new Error(
      `The extension configuration ${path} cannot make a working extension:\n- ${problems.join('\n- ')}`,
    );
  const config = value as unknown as PartnerExtensionConfig;
  return { ...config, iconsFolder: resolve(folder, config.icons) };
}

/** The Options defaults the partner's build starts with. */
export function partnerSettings(config: PartnerExtensionConfig): ExtensionSettings {
  return {
    proxyUrl: new URL(config.proxyUrl).origin,
    platformAuthUrl: new URL(config.platformAuthUrl).origin,
    platformApiUrl: new URL(config.platformApiUrl ?? config.platformAuthUrl).origin,
    clientId: config.clientId,
    partnerTag: config.partnerTag,
  };
}

/** The manifest with the partner's name and host permissions (the proxy and the platform, granted at install). */
export function partnerManifest(
  manifest: Record<string, unknown>,
  config: PartnerExtensionConfig,
): Record<string, unknown> {
  const settings = partnerSettings(config);
  const hosts = [
    ...new Set(
      [settings.proxyUrl, settings.platformAuthUrl, settings.platformApiUrl].map((origin) => `${origin}/*`),
    ),
  ];
  const action = (manifest['action'] ?? {}) as Record<string, unknown>;
  return {
    ...manifest,
    name: config.name,
    short_name: config.shortName,
    action: { ...action, default_title: config.name },
    host_permissions: hosts,
  };
}
