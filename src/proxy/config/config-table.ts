import { decodeBase64Url } from 'hono/utils/encode';
// The proxy's settings, each once: its environment variable, kind, default (per preset where the sandbox differs),
// bounds and what it does. The reader (`read-options.ts`), the `ProxyConfig` type (`../config.ts`) and
// docs/configuration.md (`config-docs.ts`) all come from this table, as Fastify's build/build-validation.js does.
import {
  demoApplication,
  extensionId,
  firefoxExtensionRedirectUri,
  localPorts,
  localUrl,
  loopbackHost,
} from '../../local-defaults.ts';
import {
  atLeast,
  boolean,
  derived,
  integer,
  none,
  oneOf,
  origin,
  originList,
  patternList,
  publicUrl,
  required,
  text,
} from './option-kinds.ts';
import { shareTargetProblem } from '../../contracts/share-contract.ts';

/** A session secret good only for the sandbox preset; production needs FAN_POLLS_SESSION_SECRET. */
const sandboxSessionSecret = 'fan-polls-sandbox-session-secret-not-for-production';

/** Bytes in a base64 (or base64url) text; -1 when it is not base64. */
function decodedLength(value: string): number {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return -1;
  try {
    return decodeBase64Url(value).length;
  } catch {
    return -1;
  }
}

/**
 * Every setting, in the order the docs list them. A default may depend on settings above it (the public URL on the
 * port). The preset (`sandbox` or `production`) is chosen by `FAN_POLLS_PRESET` and `NODE_ENV` (`preset-choice.ts`).
 */
export const proxyOptions = {
  // Which defaults and rules apply.
  preset: oneOf({
    env: 'FAN_POLLS_PRESET',
    values: ['sandbox', 'production'],
    default: 'production',
    doc: '`sandbox`: development against the local sandbox (`npm start` sets it): the demo application, a fixed session secret, every loopback page allowed and plain http to the platform, with both platform URLs on loopback. `production`: the settings marked required, https to the platform and for every allowed origin. Unset means production; `NODE_ENV=production` always means production, and is refused with `sandbox`.',
  }),

  // Where the proxy listens.
  port: integer({
    env: 'PORT',
    min: 0,
    max: 65_535,
    default: localPorts.proxy,
    doc: 'The port to listen on (`0` picks a free one).',
  }),
  host: text({
    env: 'HOST',
    kind: 'host',
    default: loopbackHost,
    doc: 'The address to listen on (`0.0.0.0` behind a load balancer).',
  }),

  // The platform and the application registered with it.
  platformApiUrl: origin({
    env: 'FAN_POLLS_PLATFORM_API_URL',
    default: localUrl(localPorts.sandboxApi),
    doc: 'Origin of the platform’s resource API (`{base_url}`); https in production, loopback in the sandbox preset. The default is the sandbox.',
  }),
  platformAuthUrl: origin({
    env: 'FAN_POLLS_PLATFORM_AUTH_URL',
    default: localUrl(localPorts.sandboxAuth),
    doc: 'Origin of the platform’s OAuth server (`{auth_url}`); https in production, loopback in the sandbox preset. Plain http to the platform only in the sandbox preset.',
  }),
  clientId: text({
    env: 'FAN_POLLS_CLIENT_ID',
    default: { sandbox: demoApplication.clientId, production: required },
    doc: 'The application’s consumer key.',
  }),
  clientSecret: text({
    env: 'FAN_POLLS_CLIENT_SECRET',
    kind: 'secret',
    default: { sandbox: demoApplication.clientSecret, production: required },
    defaultDoc: 'required in production; sandbox the demo application’s secret',
    doc: 'The consumer secret: only ever sent on the token, refresh and revoke calls; scrubbed from every log line.',
  }),
  partnerTag: text({
    env: 'FAN_POLLS_PARTNER_TAG',
    default: { sandbox: demoApplication.partnerTag, production: required },
    doc: 'Your developer-portal user name, sent as `partner_tag` on sign-in.',
  }),
  basicEncoding: oneOf({
    env: 'FAN_POLLS_BASIC_ENCODING',
    values: ['raw', 'form-encoded'],
    default: 'raw',
    doc: 'How the client authenticates to the token endpoint: `raw` is `Basic base64(id:secret)` as the spec shows; `form-encoded` form-encodes id and secret first (RFC 6749 §2.3.1, oauth4webapi’s default).',
  }),

  // Browsers: the pages that embed the widget and the session cookie.
  publicUrl: publicUrl({
    env: 'FAN_POLLS_PUBLIC_URL',
    default: {
      sandbox: derived('`http://127.0.0.1:<PORT>`', (read) => localUrl(Number(read.port))),
      production: required,
    },
    doc: 'Where browsers reach the proxy (origin plus an optional path). The sign-in callback `<it>/auth/callback` must be registered with the platform application; the iframe page and the configurator get it.',
  }),
  allowedOrigins: originList({
    env: 'FAN_POLLS_ALLOWED_ORIGINS',
    default: [localUrl(localPorts.demo)],
    doc: 'Exact origins of the pages that embed the widget (https in production; the default is the demo page): CORS, CSRF, the sign-in return address and the iframe page’s `frame-ancestors`.',
  }),
  shareTarget: text({
    env: 'FAN_POLLS_SHARE_TARGET',
    default: none,
    defaultDoc: 'none: a share page shows the poll’s banner itself',
    kind: 'url template',
    bounds: 'https URL holding `{pollId}`',
    check: (value) => shareTargetProblem(value, () => true) === undefined,
    rule: 'must be an http(s) URL holding {pollId}, with no fragment or credentials',
    doc: 'The partner’s page for a poll, where a share link (`/share/polls/<id>`) sends people, e.g. `https://www.club.example/polls/{pollId}`: the link’s tracking values are appended, with `campaign=share` unless the link names a campaign.',
  }),
  allowLoopbackOrigins: boolean({
    env: 'FAN_POLLS_ALLOW_LOOPBACK_ORIGINS',
    default: { sandbox: true, production: false },
    doc: 'Also allow every page on this machine (`http://localhost:<any port>`, `http://127.0.0.1:<any port>`, `http://[::1]:<any port>`) as if it were in `FAN_POLLS_ALLOWED_ORIGINS`, so that a page on a new local port works without a restart. On by default in the sandbox preset; refused in production.',
  }),
  sessionSecret: text({
    env: 'FAN_POLLS_SESSION_SECRET',
    kind: 'secret',
    default: { sandbox: sandboxSessionSecret, production: required },
    defaultDoc: 'required in production; sandbox a fixed development secret',
    ...atLeast(32),
    doc: 'Signs the session cookie (HMAC-SHA-256); the same on every instance.',
  }),

  // The extension.
  extensionIds: patternList({
    env: 'FAN_POLLS_EXTENSION_IDS',
    kind: 'list of extension ids',
    default: [extensionId],
    pattern: /^[a-p]{32}$/,
    rule: 'is not a Chrome extension id (32 letters a-p)',
    bounds: 'comma-separated Chrome extension ids (32 letters a-p)',
    doc: 'Chrome extensions allowed to use token mediation: origin `chrome-extension://<id>`, redirect URI `https://<id>.chromiumapp.org/`. The default is the Fan Polls extension’s id (pinned by its manifest `key`).',
  }),
  extraExtensionOrigins: patternList({
    env: 'FAN_POLLS_EXTENSION_ORIGINS',
    kind: 'list of origins',
    default: [],
    pattern: /^(moz-extension|chrome-extension):\/\/[a-z0-9-]+$/,
    rule: 'must look like moz-extension://<uuid>',
    bounds: 'comma-separated `moz-extension://<uuid>` or `chrome-extension://<id>`',
    doc: 'Extra extension origins allowed to use token mediation, such as one Firefox install’s `moz-extension://<uuid>`.',
  }),
  extraExtensionRedirectUris: patternList({
    env: 'FAN_POLLS_EXTENSION_REDIRECT_URIS',
    kind: 'list of URLs',
    default: [firefoxExtensionRedirectUri],
    pattern: /^https:\/\/[a-z0-9.-]+\/$/,
    rule: 'must be an https origin ending in "/"',
    bounds: 'comma-separated https origins ending in `/`',
    doc: 'Extension redirect URIs besides the Chrome ones (the default is the Firefox build’s); setting it replaces the default. `npm run proxy` prints every URI to register.',
  }),
  acceptAnyFirefoxOrigin: boolean({
    env: 'FAN_POLLS_ACCEPT_ANY_FIREFOX_ORIGIN',
    default: { sandbox: true, production: false },
    doc: 'Lets any `moz-extension://<uuid>` origin use token mediation (Firefox gives each install a random uuid), a code exchange only with a Firefox redirect URI. The origin check is defence in depth: PKCE and possession of the refresh token are what protect these routes.',
  }),

  // Caching and rate limits.
  pollCacheSeconds: integer({
    env: 'FAN_POLLS_POLL_CACHE_SECONDS',
    unit: 'seconds',
    min: 1,
    max: 300,
    default: 5,
    doc: 'How long a poll answer stays fresh in the proxy, and `s-maxage` for a CDN.',
  }),
  currentPollRecentHours: integer({
    env: 'FAN_POLLS_CURRENT_POLL_RECENT_HOURS',
    unit: 'hours',
    min: 0,
    max: 8_760,
    default: 168,
    doc: 'How long a club’s last poll stays its current one once no poll is open or coming (`<fan-poll current>`), from its disclosure (else its close). `0`: only open and coming polls are current.',
  }),
  signInPerMinute: integer({
    env: 'FAN_POLLS_SIGN_IN_PER_MINUTE',
    min: 1,
    max: 10_000,
    default: 20,
    doc: 'Sign-in starts, callbacks and the extension’s code exchanges allowed per client address per minute.',
  }),
  tokenMediationPerMinute: integer({
    env: 'FAN_POLLS_TOKEN_MEDIATION_PER_MINUTE',
    min: 1,
    max: 100_000,
    default: 120,
    doc: 'The extension’s refreshes and revokes allowed per client address per minute (many fans may share one address).',
  }),
  publicReadsPerMinute: integer({
    env: 'FAN_POLLS_PUBLIC_READS_PER_MINUTE',
    min: 1,
    max: 1_000_000,
    default: 500,
    doc: 'Platform reads that anonymous cache misses may cost per minute, all instances together: the rest of the application’s quota stays for fans’ sign-ins, reads and votes.',
  }),
  publicMissesPerClientPerMinute: integer({
    env: 'FAN_POLLS_PUBLIC_MISSES_PER_CLIENT_PER_MINUTE',
    min: 1,
    max: 1_000_000,
    default: 60,
    doc: 'Cache misses one client address may cause per minute (cache-busting queries); over it, 429.',
  }),
  streamsPerInstance: integer({
    env: 'FAN_POLLS_STREAMS_PER_INSTANCE',
    min: 0,
    max: 1_000_000,
    default: 5000,
    doc: 'Live poll streams (`/api/polls/stream`) one instance holds at once (about 31 kB of memory each, idle); past it a page is answered 503 `streams_full` and its cards read the polls every freshness window instead. `0` turns the streams off.',
  }),
  streamsPerClient: integer({
    env: 'FAN_POLLS_STREAMS_PER_CLIENT',
    min: 1,
    max: 1_000_000,
    default: 50,
    doc: 'Live poll streams one client address holds on one instance (fans behind one NAT share an address); past it, 503 `streams_full` and polling.',
  }),
  streamPollsMax: integer({
    env: 'FAN_POLLS_STREAM_POLLS_MAX',
    min: 1,
    max: 200,
    default: 50,
    doc: 'Polls one live poll stream may watch; a page with more reads the rest by polling.',
  }),
  publicSearch: boolean({
    env: 'FAN_POLLS_PUBLIC_SEARCH',
    default: false,
    doc: '`true` lets anonymous public reads send free text (`search`, `cursor`), each value a new cache entry and a platform read.',
  }),

  // Behind a load balancer or CDN.
  clientAddressHeader: text({
    env: 'FAN_POLLS_CLIENT_ADDRESS_HEADER',
    default: none,
    defaultDoc: 'none: the socket’s address',
    kind: 'header name',
    bounds: 'letters, digits and `-`',
    check: (value) => /^[A-Za-z0-9-]+$/.test(value),
    rule: 'must be a header name such as X-Forwarded-For',
    doc: 'The request header that carries the client’s address (`X-Forwarded-For`, or a single-value `CF-Connecting-IP` / `X-Real-IP`); that address keys the rate limits.',
  }),
  trustedProxyHops: integer({
    env: 'FAN_POLLS_TRUSTED_PROXY_HOPS',
    min: 1,
    max: 10,
    default: 1,
    doc: 'Only with `FAN_POLLS_CLIENT_ADDRESS_HEADER`: how many proxies you run in front of this one, each appending to `X-Forwarded-For`. The client’s address is the entry this many places from the right; entries further left are the client’s own word and are ignored.',
  }),

  // Shared state and operations.
  redisUrl: text({
    env: 'FAN_POLLS_REDIS_URL',
    default: none,
    defaultDoc: 'none: state in this process’s memory (one instance)',
    kind: 'url',
    bounds: '`redis://[user:password@]host:port[/db]` or `rediss://` (TLS)',
    check: (value) => /^rediss?:\/\/[^\s]+$/.test(value),
    rule: 'must be a redis:// or rediss:// URL',
    doc: 'The Redis every instance shares: sessions, sign-in state, handoff codes, rate limits and the application token.',
  }),
  tokenEncryptionKey: text({
    env: 'FAN_POLLS_TOKEN_ENCRYPTION_KEY',
    default: none,
    defaultDoc: 'none; required with Redis in production (sandbox: derived from the session secret)',
    kind: 'key',
    bounds: '32 random bytes, base64 (`openssl rand -base64 32`)',
    check: (value) => decodedLength(value) === 32,
    rule: 'must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)',
    doc: 'The AES-256-GCM key for tokens and PKCE verifiers at rest in Redis; the same on every instance (a new key signs every fan out).',
  }),
  metricsToken: text({
    env: 'FAN_POLLS_METRICS_TOKEN',
    kind: 'secret',
    default: none,
    defaultDoc: 'none: `/metrics` answers 404',
    ...atLeast(16),
    doc: 'Bearer token for `GET /metrics`: Prometheus scrapes it with `Authorization: Bearer <it>`.',
  }),

  // The club's analytics (counts only, in the shared state).
  analytics: boolean({
    env: 'FAN_POLLS_ANALYTICS',
    default: true,
    doc: 'Counts cards shown, sign-ins and votes per day, poll and tracking parameters (counts only: no cookie, identifier or address). `false`: nothing is counted and `/partner/seen` answers 404.',
  }),
  analyticsRetentionDays: integer({
    env: 'FAN_POLLS_ANALYTICS_RETENTION_DAYS',
    min: 1,
    max: 3660,
    unit: 'days',
    default: 400,
    doc: 'How long a day’s counts are kept in the shared state before they expire.',
  }),
  analyticsToken: text({
    env: 'FAN_POLLS_ANALYTICS_TOKEN',
    kind: 'secret',
    default: none,
    defaultDoc:
      'none: `/partner/analytics.json`, `.csv` and the dashboard answer 404 (`npm start` sets a development one)',
    ...atLeast(16),
    doc: 'Bearer token for the club’s reports (`GET /partner/analytics.json`, `/partner/analytics.csv`) and the dashboard at `/partner/analytics/`.',
  }),
  analyticsSeenPerMinute: integer({
    env: 'FAN_POLLS_ANALYTICS_SEEN_PER_MINUTE',
    min: 1,
    max: 1_000_000,
    default: 120,
    doc: 'Cards shown one client address may report per minute (each address held in this instance’s memory for at most two minutes, never written); past it the beacon is refused 429. Fans behind one NAT share an address.',
  }),
  logLevel: oneOf({
    env: 'FAN_POLLS_LOG_LEVEL',
    values: ['info', 'warn', 'error'],
    default: 'info',
    doc: 'The lowest level logged: `info` writes one access line per request.',
  }),
  widgetDir: text({
    env: 'FAN_POLLS_WIDGET_DIR',
    default: none,
    defaultDoc: '`dist/widget/` beside the running code',
    kind: 'path',
    doc: 'The built widget the proxy serves under `/widget/` and `/widget/v<version>/`.',
  }),
} as const;

export type ProxyOptions = typeof proxyOptions;
