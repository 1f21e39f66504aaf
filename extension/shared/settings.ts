import { localPorts, localUrl } from '../../src/local-defaults.ts';
import { TypedStorageItem, type StorageAreaLike } from './typed-storage.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import { isLoopbackHost } from '../../src/contracts/loopback.ts';

/**
 * Where the extension finds the partner proxy and the platform, and which application it signs in to. Public values
 * only (a client id is public; the secret lives in the proxy), so they sit in `storage.local`, set from the options
 * page; tests point them at ports chosen at random.
 */
export interface ExtensionSettings {
  readonly proxyUrl: string;
  /** `{base_url}`: the resource API. */
  readonly platformApiUrl: string;
  /** `{auth_url}`: the OAuth server (authorize page). */
  readonly platformAuthUrl: string;
  readonly clientId: string;
  readonly partnerTag: string;
}

/**
 * The embedded default: the local sandbox and proxy, and the sandbox's demo application. Its id and tag are written
 * out rather than imported because `demoApplication` also holds the demo secret, which must not reach the bundle
 * (settings.test.ts checks they match).
 */
const sandboxSettings: ExtensionSettings = {
  proxyUrl: localUrl(localPorts.proxy),
  platformApiUrl: localUrl(localPorts.sandboxApi),
  platformAuthUrl: localUrl(localPorts.sandboxAuth),
  clientId: 'fan-polls-demo',
  partnerTag: 'fan-polls-demo',
};

/** A partner's build replaces this with its configuration's settings (`extension/build/partner-config.ts`). */
declare const __FAN_POLLS_PARTNER_SETTINGS__: ExtensionSettings | undefined;

export const defaultSettings: ExtensionSettings =
  (typeof __FAN_POLLS_PARTNER_SETTINGS__ === 'undefined' ? undefined : __FAN_POLLS_PARTNER_SETTINGS__) ??
  sandboxSettings;

const settingsKey = 'settings';

/** An http(s) origin with no path, query or credentials, or undefined. Plain http is for loopback only. */
export function normaliseServiceUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 200) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    return undefined;
  if (url.pathname !== '/' || url.search || url.hash) return undefined;
  return url.origin;
}

function cleanIdentifier(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\w.@-]{1,100}$/.test(value) ? value : undefined;
}

/** Reads stored settings field by field: a field that fails its check falls back to its default. */
export function parseSettings(value: unknown): ExtensionSettings | undefined {
  if (!isRecord(value)) return undefined;
  return {
    proxyUrl: normaliseServiceUrl(value['proxyUrl']) ?? defaultSettings.proxyUrl,
    platformApiUrl: normaliseServiceUrl(value['platformApiUrl']) ?? defaultSettings.platformApiUrl,
    platformAuthUrl: normaliseServiceUrl(value['platformAuthUrl']) ?? defaultSettings.platformAuthUrl,
    clientId: cleanIdentifier(value['clientId']) ?? defaultSettings.clientId,
    partnerTag: cleanIdentifier(value['partnerTag']) ?? defaultSettings.partnerTag,
  };
}

export function settingsItem(local: StorageAreaLike): TypedStorageItem<ExtensionSettings> {
  return new TypedStorageItem(local, settingsKey, defaultSettings, parseSettings);
}

/** Host-permission patterns a set of settings needs (the loopback ones are granted at install). */
export function hostPatternsFor(settings: ExtensionSettings): string[] {
  return [settings.proxyUrl, settings.platformApiUrl].map((origin) => `${new URL(origin).origin}/*`);
}
