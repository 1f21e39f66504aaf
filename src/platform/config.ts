import { localPorts, localUrl } from '../local-defaults.ts';

/** The version segment of each API. Configuration, because the platform moves them (polls `1.0.8` today). */
export interface ApiVersions {
  readonly polls: string;
  readonly user: string;
  readonly survey: string;
}

export const defaultApiVersions: ApiVersions = { polls: '1.0.8', user: '1.0.0', survey: '1.0.0' };

/** Where the platform is and how to talk to it. */
export interface PlatformConfig {
  /** `{base_url}`: the resource API. */
  readonly apiUrl: string;
  /** `{auth_url}`: the OAuth server. */
  readonly authUrl: string;
  readonly versions: ApiVersions;
  /** Plain http allowed: the sandbox and tests only. */
  readonly allowInsecureRequests: boolean;
  /** Timeout of every request, in milliseconds. */
  readonly timeoutMs: number;
}

export const defaultTimeoutMs = 10_000;

export type PlatformPresetName = 'production';

export function platformPreset(
  name: PlatformPresetName,
  overrides: Partial<PlatformConfig> = {},
): PlatformConfig {
  const presets: Record<PlatformPresetName, PlatformConfig> = {
    production: {
      apiUrl: 'https://api-public.socios.com',
      authUrl: 'https://partner.socios.com',
      versions: defaultApiVersions,
      allowInsecureRequests: false,
      timeoutMs: defaultTimeoutMs,
    },
  };
  return { ...presets[name], ...overrides };
}

/** The local sandbox: plain http on loopback, on the embedded default ports unless told otherwise. */
export function sandboxPreset(
  apiUrl: string = localUrl(localPorts.sandboxApi),
  authUrl: string = localUrl(localPorts.sandboxAuth),
  overrides: Partial<PlatformConfig> = {},
): PlatformConfig {
  return {
    apiUrl,
    authUrl,
    versions: defaultApiVersions,
    allowInsecureRequests: true,
    timeoutMs: defaultTimeoutMs,
    ...overrides,
  };
}
