import type { FanPollErrorCode } from '../events/fan-poll-error-code.ts';

export type { FanPollErrorCode };

/**
 * What each code means and what the partner should do about it (the card already tells the fan). Typed by the codes
 * themselves: a new code does not compile until it is explained here, and the reference is generated from this.
 */
export const fanPollErrorCodes: Readonly<Record<FanPollErrorCode, string>> = {
  'load-failed':
    'The poll could not be read (proxy unreachable, platform down, or no such poll). Check `poll-id` and the proxy URL (and that this page’s origin is allowed); the card offers Retry, except for a poll that does not exist.',
  'origin-not-allowed':
    'The proxy does not allow this page’s origin (CORS and the banner’s `frame-ancestors`). Add the origin the `message` names to `FAN_POLLS_ALLOWED_ORIGINS` in the proxy’s environment and restart it (a sandbox proxy allows every loopback page unless `FAN_POLLS_ALLOW_LOOPBACK_ORIGINS=false`). Also in the console.',
  'sign-in-required':
    'The fan’s session ended (signed out or expired). Nothing to do: the card offers sign-in again.',
  'sign-in-failed':
    'Sign-in did not complete (refused on the consent page, or the handoff failed: a sign-in without a pop-up whose code was used already, expired or was made for another page). If it repeats, check that this page’s origin is in `FAN_POLLS_ALLOWED_ORIGINS` and the proxy’s callback URL is registered.',
  'cookies-blocked':
    'The fan signed in, but the browser refuses the proxy’s cookies on this page (third-party cookies blocked, as in Safari, or in Firefox and Chromium set to block them, with the proxy on another site than the page). The card says so and suggests voting on the club’s own site. Serve the proxy under your page’s own site (for example `polls.club.example` for `www.club.example`) to avoid it.',
  'popup-blocked':
    'The browser opened no sign-in window (an in-app browser, a WebView, a pop-up blocker). Nothing to do: the card offers “Continue to sign in”, which takes the page to the sign-in and back (`sign-in="redirect"` goes that way at once); a signed-in fan switching account clicks again.',
  'not-holder': 'The fan holds none of the club’s fan tokens. Nothing to fix: the card says who can vote.',
  'vote-refused': 'The platform refused the vote for another reason. Log it with the `message`.',
  'already-voted': 'The fan had already voted in this poll; the card shows the recorded vote.',
  'poll-closed': 'The poll closed before the vote reached the platform.',
  'vote-failed':
    'The vote could not be sent or its outcome is unknown and the re-read showed no vote. The fan may try again; if it repeats, check the proxy’s logs (`X-Request-Id`).',
  'vote-not-sent':
    'The vote certainly did not reach the platform (the proxy held it while the platform or its token endpoint failed, or the platform throttled it). Nothing counted; the card lets the fan try again. If it repeats, the proxy’s logs say which endpoint is failing.',
  'vote-uncertain':
    'The vote may have reached the platform, and neither the proxy nor the card could read the fan’s poll to tell. The card offers the vote again; log it: a vote that did count is refused as already voted on the next try.',
  'vote-cancelled': 'The fan cancelled the vote in the extension’s confirmation window. Nothing was sent.',
  'extension-failed':
    'The fan’s browser extension did not answer as expected (an old or broken install). The fan may reload the page; nothing for the partner to fix.',
  'voting-unavailable':
    'The proxy’s shared state (its Redis) did not answer, so the proxy could neither sign the fan in nor take the vote: nothing was sent. The card says voting is briefly unavailable, keeps the fan’s pick and signed-in look, and the fan’s next tap tries again. If it lasts, the proxy’s `/readyz` names what failed (`redis: unreachable`).',
  'sign-out-failed':
    'Signing out did not reach the proxy; the card says so and the fan may try again. If it repeats, check the proxy’s logs.',
  'render-failed': 'A bug: the card could not render its poll. Report it with the `message` and the poll id.',
  'list-failed':
    'The list could not read its polls (proxy unreachable, or a filter the proxy refuses). Check the filters and the proxy URL.',
  'unknown-partner':
    'No poll on the platform has a partner id the list’s `partner-ids` names (the `message` says which): a typo or another platform’s id. Fans see the empty list; fix the attribute. Also in the console.',
};
