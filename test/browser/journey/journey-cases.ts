// Engines x page site x third-party cookie policy, and what the fan gets in each: the table the README shows.

export interface JourneyCase {
  readonly engine: 'chromium' | 'firefox' | 'webkit';
  readonly site: 'same-site' | 'cross-site';
  /** `default` where the engine's own default is the only setting tested (WebKit: third-party cookies blocked). */
  readonly thirdPartyCookies: 'allowed' | 'blocked';
  /**
   * What the fan gets from the page's card and from the banner (an iframe of the proxy's origin): `voted`, signed in
   * and the platform recorded the vote once, or the sentence the card or banner shows instead.
   */
  readonly expected: { readonly card: string; readonly banner: string };
}

/** What the card says where the browser refuses the proxy's cookies on the page (the `cookies-blocked` error). */
export const cookiesBlockedMessage =
  'Your browser does not let this site keep you signed in. Vote on the club’s own site, or allow cookies for this site.';

/**
 * What the banner (a frame of the proxy's origin, where the browser has the Storage Access API) says instead: its
 * next tap asks the browser. Over plain http (these cases) WebKit has no `Secure` cookie to give it, and Firefox with
 * third-party cookies blocked refuses at once; `widget-storage-access-webkit.test.ts` follows the tap over https.
 */
export const storageAccessAskMessage =
  'Your browser asks before this poll may keep you signed in. Tap “Sign in to vote” again, then allow it.';

const voted = { card: 'voted', banner: 'voted' };
const refused = { card: cookiesBlockedMessage, banner: storageAccessAskMessage };

export const journeyCases: readonly JourneyCase[] = [
  { engine: 'chromium', site: 'same-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'chromium', site: 'same-site', thirdPartyCookies: 'blocked', expected: voted },
  { engine: 'chromium', site: 'cross-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'chromium', site: 'cross-site', thirdPartyCookies: 'blocked', expected: voted },
  { engine: 'firefox', site: 'same-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'firefox', site: 'cross-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'firefox', site: 'cross-site', thirdPartyCookies: 'blocked', expected: refused },
  { engine: 'webkit', site: 'same-site', thirdPartyCookies: 'blocked', expected: voted },
  { engine: 'webkit', site: 'cross-site', thirdPartyCookies: 'blocked', expected: refused },
];
