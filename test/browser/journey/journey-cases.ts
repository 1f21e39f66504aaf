// Engines x page site x third-party cookie policy, and what the fan gets in each: the table the README shows.

export interface JourneyCase {
  readonly engine: 'chromium' | 'firefox' | 'webkit';
  /** Where the page is: the proxy's site, or another site, over plain http or (WebKit) over https. */
  readonly site: 'same-site' | 'cross-site' | 'cross-site-https';
  /**
   * `blocked` where the engine's own default is the only setting tested (WebKit: third-party cookies blocked);
   * `tracking-prevention`: WebKit with it on (MiniBrowser's `--enable-itp`), as Safari on every iPhone.
   */
  readonly thirdPartyCookies: 'allowed' | 'blocked' | 'tracking-prevention';
  /**
   * What the fan gets from the page's card and from the banner (an iframe of the proxy's origin): `voted`, signed in
   * and the platform recorded the vote once, or the sentence the card or banner shows instead.
   */
  readonly expected: { readonly card: string; readonly banner: string };
  /** The card's first sign-in left no cookie: it signed in again, into its session frame, and voted from there. */
  readonly cardFramed?: true;
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

/**
 * What the page's card says after a first sign-in whose cookie the browser refused: its next sign-in holds the session
 * in a session frame of the proxy's origin, for this page view.
 */
export const cookiesFrameMessage =
  'Your browser does not keep you signed in across sites. Tap “Sign in to vote” again to sign in for this page.';

const voted = { card: 'voted', banner: 'voted' };
/** The card votes through its session frame; the banner's next tap would ask the browser, which refuses here. */
const cardInFrame = { card: 'voted', banner: storageAccessAskMessage };

export const journeyCases: readonly JourneyCase[] = [
  { engine: 'chromium', site: 'same-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'chromium', site: 'same-site', thirdPartyCookies: 'blocked', expected: voted },
  { engine: 'chromium', site: 'cross-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'chromium', site: 'cross-site', thirdPartyCookies: 'blocked', expected: voted },
  { engine: 'firefox', site: 'same-site', thirdPartyCookies: 'allowed', expected: voted },
  { engine: 'firefox', site: 'cross-site', thirdPartyCookies: 'allowed', expected: voted },
  {
    engine: 'firefox',
    site: 'cross-site',
    thirdPartyCookies: 'blocked',
    expected: cardInFrame,
    cardFramed: true,
  },
  { engine: 'webkit', site: 'same-site', thirdPartyCookies: 'blocked', expected: voted },
  {
    engine: 'webkit',
    site: 'cross-site',
    thirdPartyCookies: 'blocked',
    expected: cardInFrame,
    cardFramed: true,
  },
  { engine: 'webkit', site: 'cross-site-https', thirdPartyCookies: 'blocked', expected: voted },
  {
    engine: 'webkit',
    site: 'cross-site-https',
    thirdPartyCookies: 'tracking-prevention',
    // The card's partitioned cookie sticks over https; the banner votes too once the card's sign-in visited the
    // proxy's site (`widget-storage-access-webkit.test.ts` has the banner alone, first).
    expected: voted,
  },
];
