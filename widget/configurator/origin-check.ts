import { isLoopbackOrigin } from '../../src/contracts/loopback-origins.ts';

/** What the configurator says about the page a partner will embed on. */
export type OriginVerdict =
  | { readonly kind: 'empty' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'allowed'; readonly origin: string }
  | {
      readonly kind: 'missing';
      readonly origin: string;
      /** The proxy's setting with this origin added, as it goes in the environment. */
      readonly setting: string;
      /** Production proxies take https origins only. */
      readonly needsHttps: boolean;
    };

/**
 * Checks the address of the partner's page against the proxy's allowed origins (`FAN_POLLS_ALLOWED_ORIGINS`): CORS
 * for poll reads, sign-in, the fan's routes and the banner's `frame-ancestors` all use that exact list.
 */
export function checkPageOrigin(
  address: string,
  allowedOrigins: readonly string[],
  production: boolean,
  allowsLoopbackOrigins = false,
): OriginVerdict {
  const text = address.trim();
  if (text === '') return { kind: 'empty' };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return { kind: 'invalid', message: `“${text}” is not a web address.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { kind: 'invalid', message: 'A page is on an http: or https: address.' };
  const origin = url.origin;
  if (allowedOrigins.includes(origin) || (allowsLoopbackOrigins && isLoopbackOrigin(origin)))
    return { kind: 'allowed', origin };
  return {
    kind: 'missing',
    origin,
    setting: `FAN_POLLS_ALLOWED_ORIGINS=${[...allowedOrigins, origin].join(',')}`,
    needsHttps: production && url.protocol !== 'https:',
  };
}
