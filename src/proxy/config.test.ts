import { describe, expect, it } from 'vitest';
import { demoApplication, firefoxExtensionRedirectUri } from '../local-defaults.ts';
import { loadProxyConfig, ProxyConfigError } from './config.ts';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadProxyConfig(env);
  } catch (error) {
    if (error instanceof ProxyConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadProxyConfig', () => {
  it('runs against the local sandbox with the demo application when nothing is set', () => {
    const config = loadProxyConfig({});
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
      FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN: 'false',
      FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE: '600',
      FAN_POLLS_EXTENSION_REDIRECT_URIS:
        'https://0123456789abcdef0123456789abcdef01234567.extensions.allizom.org/',
    });
    expect(config.acceptAnyFirefoxOrigin).toBe(false);
    expect(config.tokenMediationPerMinute).toBe(600);
    expect(config.extensionRedirectUris).not.toContain(firefoxExtensionRedirectUri);
    const problems = problemsOf({
      FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN: 'yes',
      FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE: '0',
    }).join('\n');
    expect(problems).toContain('FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN must be "true" or "false"');
    expect(problems).toContain('FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE must be a whole number');
  });

  it('reads the client address header with one trusted proxy hop by default, and more when set', () => {
    expect(loadProxyConfig({}).clientAddressHeader).toBeUndefined();
    const behindOne = loadProxyConfig({ FAN_POLLS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' });
    expect(behindOne.clientAddressHeader).toBe('X-Forwarded-For');
    expect(behindOne.trustedProxyHops).toBe(1);
    const behindTwo = loadProxyConfig({
      FAN_POLLS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For',
      FAN_POLLS_TRUSTED_PROXY_HOPS: '2',
    });
    expect(behindTwo.trustedProxyHops).toBe(2);
    const problems = [
      ...problemsOf({
        FAN_POLLS_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For',
        FAN_POLLS_TRUSTED_PROXY_HOPS: '0',
      }),
      ...problemsOf({ FAN_POLLS_TRUSTED_PROXY_HOPS: '2' }),
    ].join('\n');
    expect(problems).toContain('FAN_POLLS_TRUSTED_PROXY_HOPS must be a whole number from 1 to 10');
    expect(problems).toContain('FAN_POLLS_TRUSTED_PROXY_HOPS needs FAN_POLLS_CLIENT_ADDRESS_HEADER');
  });

  it('needs a token encryption key with Redis in production, and reads where the Node server listens', () => {
    const production = {
      FAN_POLLS_PLATFORM_API_URL: 'https://api-public.socios.com',
      FAN_POLLS_PLATFORM_AUTH_URL: 'https://partner.socios.com',
      FAN_POLLS_CLIENT_ID: 'id',
      FAN_POLLS_CLIENT_SECRET: 'secret',
      FAN_POLLS_PARTNER_TAG: 'club',
      FAN_POLLS_SESSION_SECRET: 'x'.repeat(40),
      FAN_POLLS_PUBLIC_URL: 'https://polls.club.example',
      FAN_POLLS_ALLOWED_ORIGINS: 'https://club.example',
      FAN_POLLS_REDIS_URL: 'redis://redis.internal:6379',
    };
    expect(problemsOf(production)).toEqual([
      'FAN_POLLS_TOKEN_ENCRYPTION_KEY is required with FAN_POLLS_REDIS_URL (tokens are encrypted at rest).',
    ]);
    const key = btoa('k'.repeat(32));
    expect(loadProxyConfig({ ...production, FAN_POLLS_TOKEN_ENCRYPTION_KEY: key }).tokenEncryptionKey).toBe(
      key,
    );
    // The sandbox derives its key from the session secret.
    expect(
      loadProxyConfig({ FAN_POLLS_REDIS_URL: 'redis://127.0.0.1:6379' }).tokenEncryptionKey,
    ).toBeUndefined();
    expect(problemsOf({ FAN_POLLS_TOKEN_ENCRYPTION_KEY: 'c2hvcnQ=' })).toEqual([
      'FAN_POLLS_TOKEN_ENCRYPTION_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`).',
    ]);
    const sandbox = loadProxyConfig({ PORT: '5000', HOST: '0.0.0.0', FAN_POLLS_WIDGET_DIR: '/srv/widget' });
    expect(sandbox.publicUrl).toBe('http://127.0.0.1:5000');
    expect(sandbox.host).toBe('0.0.0.0');
    expect(sandbox.widgetDir).toBe('/srv/widget');
    expect(loadProxyConfig({}).host).toBe('127.0.0.1');
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
