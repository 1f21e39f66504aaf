// The partner proxy's environment under `npm start`: the sandbox preset, the demo page's origin and the platform URLs
// of the sandbox it started, each unless the shell sets its own.
import type { ProxyEnvironment } from '../proxy/config.ts';
import { proxyOptions } from '../proxy/config/config-table.ts';
import { choosePreset, presetSummary } from '../proxy/config/preset-choice.ts';

/** The sandbox `npm start` serves. */
export interface StartedSandbox {
  readonly apiUrl: string;
  readonly authUrl: string;
}

const presetVariable = proxyOptions.preset.env;

/** The analytics dashboard's token under `npm start` on the sandbox preset (development only, printed at start). */
export const developmentAnalyticsToken = 'fan-polls-development-analytics-token';

export function startProxyEnvironment(
  shell: ProxyEnvironment,
  sandbox: StartedSandbox,
  demoUrl: string,
): ProxyEnvironment {
  const environment: ProxyEnvironment = {
    FAN_POLLS_ALLOWED_ORIGINS: demoUrl,
    [presetVariable]: 'sandbox',
    ...shell,
    FAN_POLLS_PLATFORM_API_URL: shell.FAN_POLLS_PLATFORM_API_URL ?? sandbox.apiUrl,
    FAN_POLLS_PLATFORM_AUTH_URL: shell.FAN_POLLS_PLATFORM_AUTH_URL ?? sandbox.authUrl,
  };
  const analyticsToken = proxyOptions.analyticsToken.env;
  // Only the sandbox preset gets a token it did not ask for: a production start names its own or has no reports.
  if (choosePreset(environment).preset === 'sandbox' && environment[analyticsToken] === undefined)
    return { ...environment, [analyticsToken]: developmentAnalyticsToken };
  return environment;
}

/** `sandbox (FAN_POLLS_PRESET=sandbox, set by npm start)`, or the shell's own choice and why. */
export function startPresetSummary(shell: ProxyEnvironment, proxyEnvironment: ProxyEnvironment): string {
  const setByStart = shell[presetVariable] === undefined;
  return presetSummary(choosePreset(proxyEnvironment), setByStart ? 'npm start' : undefined);
}
