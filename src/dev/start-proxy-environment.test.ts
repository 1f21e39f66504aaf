import { describe, expect, it } from 'vitest';
import { demoApplication } from '../local-defaults.ts';
import { loadProxyConfig } from '../proxy/config.ts';
import {
  developmentAnalyticsToken,
  startPresetSummary,
  startProxyEnvironment,
} from './start-proxy-environment.ts';

const sandbox = { apiUrl: 'http://127.0.0.1:5010', authUrl: 'http://127.0.0.1:5011' };
const demoUrl = 'http://127.0.0.1:5030';

describe('the proxy under npm start', () => {
  it('chooses the sandbox preset with no setting, and says npm start set it', () => {
    const env = startProxyEnvironment({}, sandbox, demoUrl);
    const config = loadProxyConfig(env);
    expect(config.preset).toBe('sandbox');
    expect(config.allowInsecureRequests).toBe(true);
    expect(config.clientId).toBe(demoApplication.clientId);
    expect(config.platformApiUrl).toBe(sandbox.apiUrl);
    expect(config.allowedOrigins).toEqual([demoUrl]);
    expect(startPresetSummary({}, env)).toBe('sandbox (FAN_POLLS_PRESET=sandbox, set by npm start)');
  });

  it('takes the shell’s settings over its own', () => {
    const shell = { FAN_POLLS_PRESET: 'production', FAN_POLLS_ALLOWED_ORIGINS: 'https://club.example' };
    const env = startProxyEnvironment(shell, sandbox, demoUrl);
    expect(env).toMatchObject(shell);
    expect(startPresetSummary(shell, env)).toBe('production (FAN_POLLS_PRESET=production)');
  });

  it('sets a development analytics token on the sandbox preset only, and never over the shell’s', () => {
    expect(loadProxyConfig(startProxyEnvironment({}, sandbox, demoUrl)).analyticsToken).toBe(
      developmentAnalyticsToken,
    );
    const own = { FAN_POLLS_ANALYTICS_TOKEN: 'the-clubs-own-token-0123' };
    expect(startProxyEnvironment(own, sandbox, demoUrl).FAN_POLLS_ANALYTICS_TOKEN).toBe(
      own.FAN_POLLS_ANALYTICS_TOKEN,
    );
    const production = startProxyEnvironment({ FAN_POLLS_PRESET: 'production' }, sandbox, demoUrl);
    expect(production.FAN_POLLS_ANALYTICS_TOKEN).toBeUndefined();
  });

  it('is refused under NODE_ENV=production, naming both', () => {
    const env = startProxyEnvironment({ NODE_ENV: 'production' }, sandbox, demoUrl);
    expect(() => loadProxyConfig(env)).toThrow(
      'FAN_POLLS_PRESET=sandbox cannot be used with NODE_ENV=production',
    );
  });
});
