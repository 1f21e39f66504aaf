import {
  cardReturnKey,
  frameReturnKey,
  returnUrlMaxLength,
  signInReturnParams,
} from '../contracts/sign-in-return.ts';

/**
 * The page a sign-in without a pop-up comes back to, when the proxy may send the fan there: an absolute http(s) URL
 * with no credentials in it, whose exact origin is `origin` (the sign-in's `origin` parameter) and an allowed page.
 * Anything else (another origin, `javascript:`, a protocol-relative or relative address, an origin off the list) is
 * undefined: the proxy then ends on its own page and never redirects, so it is no open redirect. The address is
 * returned as `URL` writes it, the form the browser will parse back the same way.
 */
function allowedReturnUrl(
  raw: string,
  origin: string,
  isAllowedPage: (origin: string) => boolean,
): string | undefined {
  if (raw === '' || raw.length > returnUrlMaxLength) return undefined;
  let url: URL;
  try {
    // No base: a relative or protocol-relative address (`//evil.example`) does not parse.
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  if (url.origin !== origin || !isAllowedPage(origin)) return undefined;
  return url.href;
}

/** Where a sign-in without a pop-up comes back to: the page, and for a banner the frame that redeems the code. */
export interface SignInWayBack {
  readonly returnUrl: string;
  readonly frameOrigin?: string;
}

/**
 * The way back a login asks for (`return`, and `frame` for a banner): undefined when it asks for none (a pop-up),
 * `refused` when either is not allowed (a `frame` must be an allowed page's exact origin, and comes with a `return`).
 */
export function readWayBack(
  query: URLSearchParams,
  origin: string,
  isAllowedPage: (origin: string) => boolean,
): SignInWayBack | 'refused' | undefined {
  const returnTo = query.get(signInReturnParams.returnTo);
  const frame = query.get(signInReturnParams.frame);
  if (returnTo === null && frame === null) return undefined;
  const returnUrl = returnTo === null ? undefined : allowedReturnUrl(returnTo, origin, isAllowedPage);
  if (returnUrl === undefined || (frame !== null && !isAllowedPage(frame))) return 'refused';
  return frame === null ? { returnUrl } : { returnUrl, frameOrigin: frame };
}

/** The fragment key of a way back: a banner's marker is its host loader's to hand on, a card's the page's cards'. */
export function returnKeyOf(wayBack: Pick<SignInWayBack, 'frameOrigin'>): string {
  return wayBack.frameOrigin === undefined ? cardReturnKey : frameReturnKey;
}
