import { describe, expect, it } from 'vitest';
import { demoApplication, firefoxExtensionRedirectUri } from '../local-defaults.ts';
import { loadProxyConfig, ProxyConfigError } from './config.ts';

/** The sandbox preset, chosen as `npm start` chooses it. */
const sandbox = { FAN_POLLS_PRESET: 'sandbox' };
/** Every setting production requires, for the real platform. */
const production = {
  FAN_POLLS_PLATFORM_API_URL: 'https://api-public.socios.com',
  FAN_POLLS_PLATFORM_AUTH_URL: 'https://partner.socios.com',
  FAN_POLLS_CLIENT_ID: 'id',
  FAN_POLLS_CLIENT_SECRET: 'secret',
  FAN_POLLS_PARTNER_TAG: 'club',
  FAN_POLLS_SESSION_SECRET: 'x'.repeat(40),
  FAN_POLLS_PUBLIC_URL: 'https://polls.club.example',
  FAN_POLLS_ALLOWED_ORIGINS: 'https://club.example',
};

/** The error start-up stops with, or undefined when `env` is good. */
function refusalOf(env: Record<string, string>): ProxyConfigError | undefined {
  try {
    loadProxyConfig(env);
  } catch (error) {
    if (error instanceof ProxyConfigError) return error;
    throw error;
  }
  return undefined;
}

const problemsOf = (env: Record<string, string>): readonly string[] => refusalOf(env)?.problems ?? [];
const messageOf = (env: Record<string, string>): string => refusalOf(env)?.message ?? '';

describe('loadProxyConfig', () => {
  it('runs against the local sandbox with the demo application when FAN_POLLS_PRESET=sandbox', () => {
    const config = loadProxyConfig(sandbox);
    expect(config.preset).toBe('sandbox');
    expect(config.platformApiUrl).toBe('http://127.0.0.1:4010');
    expect(config.platformAuthUrl).toBe('http://127.0.0.1:4011');
    expect(config.allowInsecureRequests).toBe(true);
    expect(config.clientId).toBe(demoApplication.clientId);
    expect(config.callbackUrl).toBe('http://127.0.0.1:4020/auth/callback');
    expect(config.allowedOrigins).toEqual(['http://127.0.0.1:4030']);
    expect(config.extensionOrigins).toEqual(['chrome-extension://mkpodpnnmdfbdhcedkibocckbggbgkjd']);
    expect(config.extensionRedirectUris).toEqual([
      'https://mkpodpnnmdfbdhcedkibocckbggbgkjd.chromiumapp.org/',
      firefoxExtensionRedirectUri,
    ]);
    expect(config.acceptAnyFirefoxOrigin).toBe(true);
    expect(config.signInPerMinute).toBe(20);
    expect(config.tokenMediationPerMinute).toBe(120);
  });

  it('requires every credential, https and a public URL for a real platform, and names each problem', () => {
    const problems = problemsOf({
      FAN_POLLS_PLATFORM_API_URL: 'https://api-public.socios.com',
      FAN_POLLS_PLATFORM_AUTH_URL: 'http://partner.socios.com',
    });
    const text = problems.join('\n');
    for (const name of [
      'FAN_POLLS_PLATFORM_AUTH_URL must be an https URL',
      'FAN_POLLS_CLIENT_ID is required',
      'FAN_POLLS_CLIENT_SECRET is required',
      'FAN_POLLS_PARTNER_TAG is required',
      'FAN_POLLS_SESSION_SECRET is required',
      'FAN_POLLS_PUBLIC_URL is required',
      'FAN_POLLS_ALLOWED_ORIGINS: "http://127.0.0.1:4030" must be https',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('accepts a complete production setting and never allows plain http there', () => {
    const config = loadProxyConfig({
      FAN_POLLS_PLATFORM_API_URL: 'https://api-public.socios.com',
      FAN_POLLS_PLATFORM_AUTH_URL: 'https://partner.socios.com/',
      FAN_POLLS_CLIENT_ID: 'id',
      FAN_POLLS_CLIENT_SECRET: 'secret',
      FAN_POLLS_PARTNER_TAG: 'club',
      FAN_POLLS_SESSION_SECRET: 'x'.repeat(40),
      FAN_POLLS_PUBLIC_URL: 'https://polls.club.example/proxy/',
      FAN_POLLS_ALLOWED_ORIGINS: 'https://www.club.example, https://club.example',
      FAN_POLLS_EXTENSION_ORIGINS: 'moz-extension://0b0c3c3e-1111-4222-8333-444455556666',
    });
    expect(config.allowInsecureRequests).toBe(false);
    expect(config.platformAuthUrl).toBe('https://partner.socios.com');
    expect(config.callbackUrl).toBe('https://polls.club.example/proxy/auth/callback');
    expect(config.allowedOrigins).toEqual(['https://www.club.example', 'https://club.example']);
    expect(config.extensionOrigins).toContain('moz-extension://0b0c3c3e-1111-4222-8333-444455556666');
    // Production names its Firefox installs; any moz-extension origin only by an explicit opt-in.
    expect(config.acceptAnyFirefoxOrigin).toBe(false);
    expect(config.extensionRedirectUris).toContain(firefoxExtensionRedirectUri);
  });

  it('reads the Firefox opt-in, the token mediation limit and replaces the default extra redirect URIs', () => {
    const config = loadProxyConfig({
      ...sandbox,
      FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN: 'false',
      FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE: '600',
      FAN_POLLS_EXTENSION_REDIRECT_URIS:
        'https://0123456789abcdef0123456789abcdef01234567.extensions.allizom.org/',
    });
    expect(config.acceptAnyFirefoxOrigin).toBe(false);
    expect(config.tokenMediationPerMinute).toBe(600);
    expect(config.extensionRedirectUris).not.toContain(firefoxExtensionRedirectUri);
    const problems = problemsOf({
      ...sandbox,
      FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN: 'yes',
      FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE: '0',
    }).join('\n');
    expect(problems).toContain('FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN must be "true" or "false"');
    expect(problems).toContain('FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE must be a whole number');
  });

  it('reads the client address header with one trusted proxy hop by default, and more when set', () => {
    expect(loadProxyConfig(sandbox).clientAddressHeader).toBeUndefined();
    const behindOne = loadProxyConfig({ ...sandbox, FAN_POLLS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' });
    expect(behindOne.clientAddressHeader).toBe('X-Forwarded-For');
    expect(behindOne.trustedProxyHops).toBe(1);
    const behindTwo = loadProxyConfig({
      ...sandbox,
      FAN_POLLS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For',
      FAN_POLLS_TRUSTED_PROXY_HOPS: '2',
    });
    expect(behindTwo.trustedProxyHops).toBe(2);
    const problems = [
      ...problemsOf({
        ...sandbox,
        FAN_POLLS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For',
        FAN_POLLS_TRUSTED_PROXY_HOPS: '0',
      }),
      ...problemsOf({ ...sandbox, FAN_POLLS_TRUSTED_PROXY_HOPS: '2' }),
    ].join('\n');
    expect(problems).toContain('FAN_POLLS_TRUSTED_PROXY_HOPS must be a whole number from 1 to 10');
    expect(problems).toContain('FAN_POLLS_TRUSTED_PROXY_HOPS needs FAN_POLLS_CLIENT_ADDRESS_HEADER');
  });

  it('needs a token encryption key with Redis in production, and reads where the Node server listens', () => {
    const withRedis = { ...production, FAN_POLLS_REDIS_URL: 'redis://redis.internal:6379' };
    expect(problemsOf(withRedis)).toEqual([
      'FAN_POLLS_TOKEN_ENCRYPTION_KEY is required with FAN_POLLS_REDIS_URL (tokens are encrypted at rest).',
    ]);
    const key = btoa('k'.repeat(32));
    expect(loadProxyConfig({ ...withRedis, FAN_POLLS_TOKEN_ENCRYPTION_KEY: key }).tokenEncryptionKey).toBe(
      key,
    );
    // The sandbox derives its key from the session secret.
    expect(
      loadProxyConfig({ ...sandbox, FAN_POLLS_REDIS_URL: 'redis://127.0.0.1:6379' }).tokenEncryptionKey,
    ).toBeUndefined();
    expect(problemsOf({ ...sandbox, FAN_POLLS_TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' })).toEqual([
      'FAN_POLLS_TOKEN_ENCRYPTION_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`).',
    ]);
    const local = loadProxyConfig({
      ...sandbox,
      PORT: '5000',
      HOST: '0.0.0.0',
      FAN_POLLS_WIDGET_DIR: '/srv/widget',
    });
    expect(local.publicUrl).toBe('http://127.0.0.1:5000');
    expect(local.host).toBe('0.0.0.0');
    expect(local.widgetDir).toBe('/srv/widget');
    expect(loadProxyConfig(sandbox).host).toBe('127.0.0.1');
  });

  it('refuses bad values with a message naming the setting', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      FAN_POLLS_ALLOWED_ORIGINS: 'https://club.example/path',
      FAN_POLLS_SESSION_SECRET: 'short',
      FAN_POLLS_EXTENSION_IDS: 'not-an-id',
      FAN_POLLS_BASIC_ENCODING: 'hex',
      FAN_POLLS_PLATFORM_API_URL: 'ftp://127.0.0.1',
    }).join('\n');
    expect(problems).toContain('PORT must be a whole number');
    expect(problems).toContain('must be an origin only');
    expect(problems).toContain('FAN_POLLS_SESSION_SECRET must be at least 32 characters');
    expect(problems).toContain('FAN_POLLS_EXTENSION_IDS');
    expect(problems).toContain('FAN_POLLS_BASIC_ENCODING');
    expect(problems).toContain('must be an http or https URL');
  });

  it('never puts the secret in its error message', () => {
    try {
      loadProxyConfig({ FAN_POLLS_CLIENT_SECRET: 'top-secret-value', FAN_POLLS_SESSION_SECRET: 'short' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('top-secret-value');
    }
  });
});

describe('loadProxyConfig: the preset', () => {
  /** Every production setting, the platform reached through a local sidecar (loopback, https). */
  const productionOnLoopback = {
    ...production,
    NODE_ENV: 'production',
    FAN_POLLS_PLATFORM_API_URL: 'https://127.0.0.1:8443',
    FAN_POLLS_PLATFORM_AUTH_URL: 'https://localhost:8444',
  };

  it('is production when nothing chooses it, whatever the platform URLs, and says how to choose the sandbox', () => {
    const message = messageOf({});
    for (const name of ['CLIENT_ID', 'CLIENT_SECRET', 'PARTNER_TAG', 'SESSION_SECRET', 'PUBLIC_URL'])
      expect(message).toContain(`FAN_POLLS_${name} is required in production.`);
    expect(message).toContain('FAN_POLLS_PLATFORM_API_URL must be an https URL in production.');
    expect(message).toContain(
      'preset: production (the default: neither FAN_POLLS_PRESET nor NODE_ENV=production',
    );
    expect(message).toContain('set FAN_POLLS_PRESET=sandbox');
  });

  it('is production with NODE_ENV=production and the platform on loopback: no development default', () => {
    const { FAN_POLLS_SESSION_SECRET: _secret, ...withoutSecret } = productionOnLoopback;
    expect(problemsOf(withoutSecret)).toEqual(['FAN_POLLS_SESSION_SECRET is required in production.']);
    const message = messageOf(withoutSecret);
    expect(message).toContain('preset: production (NODE_ENV=production)');
    expect(message).not.toContain('FAN_POLLS_PRESET=sandbox');
    const config = loadProxyConfig(productionOnLoopback);
    expect(config.preset).toBe('production');
    expect(config.allowLoopbackOrigins).toBe(false);
    expect(config.allowInsecureRequests).toBe(false);
    expect(config.acceptAnyFirefoxOrigin).toBe(false);
  });

  it('never talks plain http to the platform in production, loopback or not', () => {
    const sidecar = { ...productionOnLoopback, FAN_POLLS_PLATFORM_API_URL: 'http://127.0.0.1:8080' };
    expect(problemsOf(sidecar)).toEqual(['FAN_POLLS_PLATFORM_API_URL must be an https URL in production.']);
  });

  it('refuses FAN_POLLS_ALLOW_LOOPBACK_ORIGINS=true in production, and takes it in the sandbox preset', () => {
    expect(problemsOf({ ...productionOnLoopback, FAN_POLLS_ALLOW_LOOPBACK_ORIGINS: 'true' })).toEqual([
      "FAN_POLLS_ALLOW_LOOPBACK_ORIGINS=true is for the sandbox preset only: in production, list each page's origin in FAN_POLLS_ALLOWED_ORIGINS.",
    ]);
    expect(
      loadProxyConfig({ ...sandbox, FAN_POLLS_ALLOW_LOOPBACK_ORIGINS: 'true' }).allowLoopbackOrigins,
    ).toBe(true);
  });

  it('refuses NODE_ENV=production with FAN_POLLS_PRESET=sandbox, naming both', () => {
    const problems = problemsOf({ ...productionOnLoopback, ...sandbox });
    expect(problems).toEqual([
      'FAN_POLLS_PRESET=sandbox cannot be used with NODE_ENV=production: unset one of them (production needs its own settings).',
    ]);
  });

  it('keeps the sandbox preset to a platform on loopback, and refuses a preset it does not know', () => {
    expect(
      problemsOf({
        ...sandbox,
        FAN_POLLS_PLATFORM_API_URL: 'https://api-public.socios.com',
        FAN_POLLS_PLATFORM_AUTH_URL: 'https://partner.socios.com',
      }),
    ).toEqual([
      'FAN_POLLS_PLATFORM_API_URL must be on loopback with FAN_POLLS_PRESET=sandbox (the sandbox preset is for the local sandbox only).',
      'FAN_POLLS_PLATFORM_AUTH_URL must be on loopback with FAN_POLLS_PRESET=sandbox (the sandbox preset is for the local sandbox only).',
    ]);
    expect(problemsOf({ ...productionOnLoopback, FAN_POLLS_PRESET: 'dev' })).toEqual([
      'FAN_POLLS_PRESET must be "sandbox" or "production", not "dev".',
    ]);
  });
});
