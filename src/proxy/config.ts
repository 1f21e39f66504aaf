import {
  demoApplication,
  extensionId as demoExtensionId,
  firefoxExtensionRedirectUri,
  localPorts,
  localUrl,
} from '../local-defaults.ts';
import { isLoopbackUrl } from '../contracts/loopback.ts';

/**
 * The proxy's settings, read once from the environment at start-up. With nothing set it runs against the local
 * sandbox with the demo application; anything pointing at a non-loopback platform must be set explicitly, over
 * https, or start-up stops with a message naming every bad setting.
 */
export interface ProxyConfig {
  /** `{base_url}` of the platform's resource API. */
  readonly platformApiUrl: string;
  /** `{auth_url}` of the platform's OAuth server. */
  readonly platformAuthUrl: string;
  /** Plain http to the platform: only when both platform URLs are loopback (the sandbox). */
  readonly allowInsecureRequests: boolean;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly partnerTag: string;
  /** `raw`: Basic base64(id:secret) as the spec shows; `form-encoded`: RFC 6749 §2.3.1 (oauth4webapi's default). */
  readonly basicEncoding: 'raw' | 'form-encoded';
  /** Where browsers reach this proxy (origin plus optional path, no trailing slash). The callback hangs off it. */
  readonly publicUrl: string;
  /** `${publicUrl}/auth/callback`: must be registered with the platform application. */
  readonly callbackUrl: string;
  /** Exact origins of partner pages allowed to call the proxy (CORS, CSRF, sign-in return address). */
  readonly allowedOrigins: readonly string[];
  /** Signs the session cookie (HMAC-SHA-256). At least 32 characters. */
  readonly sessionSecret: string;
  /** Origins the extension calls from: `chrome-extension://<id>` and configured `moz-extension://<uuid>`. */
  readonly extensionOrigins: readonly string[];
  /**
   * Redirect URIs the extension registered: `https://<id>.chromiumapp.org/` for each Chrome id, plus
   * FAN_POLLS_EXTENSION_REDIRECT_URIS (default: the Firefox build's `https://<sha1>.extensions.allizom.org/`).
   */
  readonly extensionRedirectUris: readonly string[];
  /**
   * Any `moz-extension://<uuid>` origin may use token mediation (Firefox gives each install a random uuid), a code
   * exchange only with a Firefox redirect URI. On by default for the sandbox preset only; elsewhere off unless
   * FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN=true says so. The origin check is defence in depth: PKCE and possession of
   * the refresh token are what protect these routes.
   */
  readonly acceptAnyFirefoxOrigin: boolean;
  readonly port: number;
  /** Seconds a poll answer stays fresh in the proxy (and `s-maxage` for a CDN). */
  readonly pollCacheSeconds: number;
  /** Sign-in starts, callbacks and extension code exchanges allowed per client address per minute. */
  readonly signInPerMinute: number;
  /** Extension refreshes and revokes allowed per client address per minute (many fans may share one address). */
  readonly tokenMediationPerMinute: number;
  /**
   * Behind a load balancer or CDN: the request header that carries the client's address (`X-Forwarded-For`,
   * `CF-Connecting-IP`, `X-Real-IP`); that address keys the rate limits. Unset: the socket's address.
   */
  readonly clientAddressHeader: string | undefined;
  /**
   * How many proxies you run in front of this one, each appending to `X-Forwarded-For`: the client's address is the
   * entry this many places from the right (entries further left are written by the client). Default 1.
   */
  readonly trustedProxyHops: number;
  /**
   * `redis://` or `rediss://` URL of the Redis every instance shares (sessions, sign-in state, handoff codes, rate
   * limits, the application token). Unset: all of it in this process's memory (one instance).
   */
  readonly redisUrl: string | undefined;
  /**
   * 32 bytes, base64: the AES-256-GCM key for tokens at rest in Redis. Required with Redis, except on the sandbox
   * (derived from the session secret there).
   */
  readonly tokenEncryptionKey: string | undefined;
  /** Bearer token for `GET /metrics` (at least 16 characters); unset, `/metrics` answers 404. */
  readonly metricsToken: string | undefined;
  /** The lowest level logged: `info` (one access line per request), `warn` or `error`. */
  readonly logLevel: 'info' | 'warn' | 'error';
  /**
   * Platform reads that public (anonymous) cache misses may cost per minute, all instances together: the rest of the
   * application's quota is kept for fans' sign-ins, reads and votes.
   */
  readonly publicReadsPerMinute: number;
  /** Public cache misses one client address may cause per minute (cache-busting queries). */
  readonly publicMissesPerClientPerMinute: number;
  /** Anonymous callers may send free text (`search`, `cursor`) in public reads: each is a new cache entry. */
  readonly publicSearch: boolean;
}

export class ProxyConfigError extends Error {
  override readonly name = 'ProxyConfigError';
  readonly code = 'invalid_config';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`The proxy cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}

export type ProxyEnvironment = Readonly<Record<string, string | undefined>>;

/** A session secret good only for the sandbox preset; a real platform needs FAN_POLLS_SESSION_SECRET. */
const sandboxSessionSecret = 'fan-polls-sandbox-session-secret-not-for-production';

export function loadProxyConfig(env: ProxyEnvironment): ProxyConfig {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const port = readInteger(text('PORT'), 'PORT', localPorts.proxy, 0, 65_535, problems);
  const platformApiUrl = readOrigin(
    text('FAN_POLLS_PLATFORM_API_URL'),
    'FAN_POLLS_PLATFORM_API_URL',
    problems,
  );
  const platformAuthUrl = readOrigin(
    text('FAN_POLLS_PLATFORM_AUTH_URL'),
    'FAN_POLLS_PLATFORM_AUTH_URL',
    problems,
  );
  const apiUrl = platformApiUrl ?? localUrl(localPorts.sandboxApi);
  const authUrl = platformAuthUrl ?? localUrl(localPorts.sandboxAuth);
  const sandbox = isLoopbackUrl(apiUrl) && isLoopbackUrl(authUrl);
  if (!sandbox) {
    for (const [name, url] of [
      ['FAN_POLLS_PLATFORM_API_URL', apiUrl],
      ['FAN_POLLS_PLATFORM_AUTH_URL', authUrl],
    ] as const) {
      if (!url.startsWith('https://'))
        problems.push(`${name} must be an https URL for a platform that is not on loopback.`);
    }
  }

  const required = (name: string, sandboxDefault: string): string => {
    const value = text(name);
    if (value !== undefined) return value;
    if (!sandbox) problems.push(`${name} is required when the platform is not the local sandbox.`);
    return sandboxDefault;
  };
  const clientId = required('FAN_POLLS_CLIENT_ID', demoApplication.clientId);
  const clientSecret = required('FAN_POLLS_CLIENT_SECRET', demoApplication.clientSecret);
  const partnerTag = required('FAN_POLLS_PARTNER_TAG', demoApplication.partnerTag);
  const sessionSecret = required('FAN_POLLS_SESSION_SECRET', sandboxSessionSecret);
  if (sessionSecret.length < 32) problems.push('FAN_POLLS_SESSION_SECRET must be at least 32 characters.');

  const basicEncoding = text('FAN_POLLS_BASIC_ENCODING') ?? 'raw';
  if (basicEncoding !== 'raw' && basicEncoding !== 'form-encoded') {
    problems.push(`FAN_POLLS_BASIC_ENCODING must be "raw" or "form-encoded", not "${basicEncoding}".`);
  }

  const publicUrl = readPublicUrl(text('FAN_POLLS_PUBLIC_URL'), sandbox, port, problems);

  const allowedOrigins = readList(text('FAN_POLLS_ALLOWED_ORIGINS'), [localUrl(localPorts.demo)]).flatMap(
    (value) => {
      const origin = readOrigin(value, 'FAN_POLLS_ALLOWED_ORIGINS', problems);
      return origin === undefined ? [] : [origin];
    },
  );
  if (!sandbox) {
    for (const origin of allowedOrigins) {
      if (!origin.startsWith('https://'))
        problems.push(`FAN_POLLS_ALLOWED_ORIGINS: "${origin}" must be https.`);
    }
  }

  const extensionIds = readList(text('FAN_POLLS_EXTENSION_IDS'), [demoExtensionId]);
  for (const id of extensionIds) {
    if (!/^[a-p]{32}$/.test(id))
      problems.push(`FAN_POLLS_EXTENSION_IDS: "${id}" is not a Chrome extension id (32 letters a-p).`);
  }
  const extraExtensionOrigins = readList(text('FAN_POLLS_EXTENSION_ORIGINS'), []);
  for (const origin of extraExtensionOrigins) {
    if (!/^(moz-extension|chrome-extension):\/\/[a-z0-9-]+$/.test(origin)) {
      problems.push(`FAN_POLLS_EXTENSION_ORIGINS: "${origin}" must look like moz-extension://<uuid>.`);
    }
  }
  const extraRedirectUris = readList(text('FAN_POLLS_EXTENSION_REDIRECT_URIS'), [
    firefoxExtensionRedirectUri,
  ]);
  for (const uri of extraRedirectUris) {
    if (!/^https:\/\/[a-z0-9.-]+\/$/.test(uri)) {
      problems.push(`FAN_POLLS_EXTENSION_REDIRECT_URIS: "${uri}" must be an https origin ending in "/".`);
    }
  }

  const acceptAnyFirefoxOrigin = readBoolean(
    text('FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN'),
    'FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN',
    sandbox,
    problems,
  );

  const pollCacheSeconds = readInteger(
    text('FAN_POLLS_POLL_CACHE_SECONDS'),
    'FAN_POLLS_POLL_CACHE_SECONDS',
    5,
    1,
    300,
    problems,
  );
  const signInPerMinute = readInteger(
    text('FAN_POLLS_SIGN_IN_PER_MINUTE'),
    'FAN_POLLS_SIGN_IN_PER_MINUTE',
    20,
    1,
    10_000,
    problems,
  );

  const tokenMediationPerMinute = readInteger(
    text('FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE'),
    'FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE',
    120,
    1,
    100_000,
    problems,
  );

  const clientAddressHeader = text('FAN_POLLS_CLIENT_ADDRESS_HEADER');
  if (clientAddressHeader !== undefined && !/^[A-Za-z0-9-]+$/.test(clientAddressHeader)) {
    problems.push('FAN_POLLS_CLIENT_ADDRESS_HEADER must be a header name such as X-Forwarded-For.');
  }
  const trustedProxyHopsText = text('FAN_POLLS_TRUSTED_PROXY_HOPS');
  if (trustedProxyHopsText !== undefined && clientAddressHeader === undefined) {
    problems.push(
      'FAN_POLLS_TRUSTED_PROXY_HOPS needs FAN_POLLS_CLIENT_ADDRESS_HEADER (the header the hops write).',
    );
  }
  const trustedProxyHops = readInteger(
    trustedProxyHopsText,
    'FAN_POLLS_TRUSTED_PROXY_HOPS',
    1,
    1,
    10,
    problems,
  );

  const publicReadsPerMinute = readInteger(
    text('FAN_POLLS_PUBLIC_READS_PER_MINUTE'),
    'FAN_POLLS_PUBLIC_READS_PER_MINUTE',
    500,
    1,
    1_000_000,
    problems,
  );
  const publicMissesPerClientPerMinute = readInteger(
    text('FAN_POLLS_PUBLIC_MISSES_PER_CLIENT_PER_MINUTE'),
    'FAN_POLLS_PUBLIC_MISSES_PER_CLIENT_PER_MINUTE',
    60,
    1,
    1_000_000,
    problems,
  );
  const publicSearch = readBoolean(
    text('FAN_POLLS_PUBLIC_SEARCH'),
    'FAN_POLLS_PUBLIC_SEARCH',
    false,
    problems,
  );
  const redisUrl = text('FAN_POLLS_REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    problems.push('FAN_POLLS_REDIS_URL must be a redis:// or rediss:// URL.');
  }
  const tokenEncryptionKey = text('FAN_POLLS_TOKEN_ENCRYPTION_KEY');
  if (tokenEncryptionKey !== undefined && decodedLength(tokenEncryptionKey) !== 32) {
    problems.push(
      'FAN_POLLS_TOKEN_ENCRYPTION_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`).',
    );
  }
  if (redisUrl !== undefined && tokenEncryptionKey === undefined && !sandbox) {
    problems.push(
      'FAN_POLLS_TOKEN_ENCRYPTION_KEY is required with FAN_POLLS_REDIS_URL (tokens are encrypted at rest).',
    );
  }
  const metricsToken = text('FAN_POLLS_METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) {
    problems.push('FAN_POLLS_METRICS_TOKEN must be at least 16 characters.');
  }
  const logLevel = text('FAN_POLLS_LOG_LEVEL') ?? 'info';
  if (logLevel !== 'info' && logLevel !== 'warn' && logLevel !== 'error') {
    problems.push(`FAN_POLLS_LOG_LEVEL must be "info", "warn" or "error", not "${logLevel}".`);
  }

  if (problems.length > 0) throw new ProxyConfigError(problems);
  return {
    platformApiUrl: apiUrl,
    platformAuthUrl: authUrl,
    allowInsecureRequests: sandbox,
    clientId,
    clientSecret,
    partnerTag,
    basicEncoding: basicEncoding as ProxyConfig['basicEncoding'],
    publicUrl,
    callbackUrl: `${publicUrl}/auth/callback`,
    allowedOrigins,
    sessionSecret,
    extensionOrigins: [...extensionIds.map((id) => `chrome-extension://${id}`), ...extraExtensionOrigins],
    extensionRedirectUris: [
      ...extensionIds.map((id) => `https://${id}.chromiumapp.org/`),
      ...extraRedirectUris,
    ],
    acceptAnyFirefoxOrigin,
    port,
    pollCacheSeconds,
    signInPerMinute,
    tokenMediationPerMinute,
    clientAddressHeader,
    trustedProxyHops,
    redisUrl,
    tokenEncryptionKey,
    metricsToken,
    logLevel: logLevel as ProxyConfig['logLevel'],
    publicReadsPerMinute,
    publicMissesPerClientPerMinute,
    publicSearch,
  };
}

/** Bytes in a base64 (or base64url) text; -1 when it is not base64. */
function decodedLength(value: string): number {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return -1;
  try {
    return atob(value.replace(/-/g, '+').replace(/_/g, '/')).length;
  } catch {
    return -1;
  }
}

function readList(value: string | undefined, fallback: readonly string[]): string[] {
  if (value === undefined) return [...fallback];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** An http(s) URL with no path, query or fragment, returned as its origin. */
function readOrigin(value: string | undefined, name: string, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${name}: "${value}" is not a URL.`);
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push(`${name}: "${value}" must be an http or https URL.`);
    return undefined;
  }
  if (
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== ''
  ) {
    problems.push(`${name}: "${value}" must be an origin only (scheme, host, port), with no path.`);
    return undefined;
  }
  return url.origin;
}

function readPublicUrl(
  value: string | undefined,
  sandbox: boolean,
  port: number,
  problems: string[],
): string {
  if (value === undefined) {
    if (!sandbox)
      problems.push('FAN_POLLS_PUBLIC_URL is required when the platform is not the local sandbox.');
    return localUrl(port);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`FAN_POLLS_PUBLIC_URL: "${value}" is not a URL.`);
    return localUrl(port);
  }
  const loopbackHttp = url.protocol === 'http:' && isLoopbackUrl(url);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    problems.push(`FAN_POLLS_PUBLIC_URL: "${value}" must be https (the session cookie is Secure).`);
  }
  if (url.search !== '' || url.hash !== '')
    problems.push('FAN_POLLS_PUBLIC_URL must have no query or fragment.');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function readBoolean(
  value: string | undefined,
  name: string,
  fallback: boolean,
  problems: string[],
): boolean {
  if (value === undefined) return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  problems.push(`${name} must be "true" or "false", not "${value}".`);
  return fallback;
}

function readInteger(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
  problems: string[],
): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, not "${value}".`);
    return fallback;
  }
  return number;
}
