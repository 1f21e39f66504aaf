/**
 * The iframe embed's host loader, a module script: `<fan-poll-frame poll-id="..." referrer="..." campaign="..."
 * param1="..." theme="dark" lang="fr">` becomes an iframe of `embed/poll.html` beside this script, sized to its
 * content, whose card events are re-dispatched on the element. Messages are accepted only from that iframe, on its
 * origin, with the right shape. Plain DOM (no Lit) to stay tiny.
 */
import { sessionChangedEvent, sessionCheckEvent, sessionEventOrigin } from '../session/session-events.ts';
import { refusedOrigin } from '../delivery/refused-origin.ts';
import { appendTracking, cleanTracking, type TrackingParameters } from '../../src/contracts/tracking.ts';
import { bannerFrameAllow } from '../../src/contracts/share-contract.ts';
import { voteEventHint, voteHeardEvent, voteKnownEvent, type VoteHint } from '../session/vote-hint.ts';
import { cardReturnKey, framePickKey, frameReturnKey } from '../../src/contracts/sign-in-return.ts';
import { withFragmentValue, withSignInReturn } from '../../src/contracts/sign-in-return-fragment.ts';
import { takeReturnFromAddress, type AddressReturn } from '../voting/address-return.ts';
import { readSignInPick } from '../voting/sign-in-pick.ts';
import { frameLinkNames } from './frame-card-settings.ts';
import {
  frameSource,
  readFrameMessage,
  type FramePageMessage,
  type FrameToHostMessage,
} from './frame-messages.ts';

const titles: Readonly<Record<string, string>> = {
  de: 'Fan-Umfrage',
  en: 'Fan poll',
  es: 'Encuesta de aficionados',
  fr: 'Sondage des fans',
  it: 'Sondaggio dei tifosi',
  pt: 'Sondagem dos adeptos',
};
const embedPage = new URL('embed/poll.html', import.meta.url);
/** The proxy's public URL: this script is served under its `/widget/`. */
const proxyUrl = embedPage.href.replace(/\/widget\/.*$/, '');
/**
 * The iframe's height until its card has data: the partner's `--fan-poll-min-height` (the same knob as the card's),
 * else a three-answer card at a phone's width; the frame then takes its card's height in one step.
 */
const startHeight = 'var(--fan-poll-min-height, 440px)';
/** The banners on the page: one fan session with their proxy, shared with the page's own cards. */
const frames = new Set<HTMLIFrameElement>();
/**
 * Back from a banner's sign-in without a pop-up: its marker (the handoff code, bound to the banner frame's origin)
 * and the fan's pick, out of this page's address at once. The host page passes nothing secret on its own: the frame
 * that redeems the code gets it in the fragment of its `src` (the banner page's address, which no server sees), and
 * its card takes it from there as a page's card takes its own. One banner gets it, the one of the picked poll (else
 * the first to connect): the banners of one proxy share the session.
 */
let frameReturn = takeReturnFromAddress(frameReturnKey, framePickKey);
const pickedPoll = readSignInPick(frameReturn?.pick)?.pollId;

/** The banner page's address with what its sign-in brought back, under the keys its card reads. */
function frameAddressBack(page: string, back: AddressReturn): string {
  const withMarker = withSignInReturn(page, cardReturnKey, back.marker);
  return back.pick === undefined ? withMarker : withFragmentValue(withMarker, framePickKey, back.pick);
}

/**
 * Tells the banners (but `except`, where the change happened) that the fan's session with `proxy` changed; a banner
 * whose card uses another proxy ignores it. The banner page may be served from the proxy or from the partner's site.
 */
function tellFrames(proxy: string, except?: HTMLIFrameElement): void {
  postToFrames({ source: frameSource.host, type: 'session', proxy }, except);
}

/** Tells the banners (but `except`) the fan's vote a card of this page or another banner learnt: a hint to confirm. */
function tellFramesVote(hint: VoteHint, except?: HTMLIFrameElement): void {
  postToFrames({ source: frameSource.host, type: 'vote', hint }, except);
}

function postToFrames(message: FrameToHostMessage, except?: HTMLIFrameElement): void {
  for (const frame of frames)
    if (frame !== except) frame.contentWindow?.postMessage(message, embedPage.origin);
}

// A card of this page signed in, out or as someone else.
window.addEventListener(sessionChangedEvent, (event) => {
  const proxy = sessionEventOrigin(event);
  if (proxy) tellFrames(proxy);
});
// A card of this page cast or read the fan's vote.
window.addEventListener(voteKnownEvent, (event) => {
  const hint = voteEventHint(event);
  if (hint) tellFramesVote(hint);
});

/**
 * The iframe banner's host element: an iframe of the proxy's `embed/poll.html` (beside this script), sized to its
 * card, with the card's events re-dispatched on this element. Load it from the proxy that serves the iframe page
 * (`<script type="module" src="<proxy>/widget/v<version>/fan-polls-frame.js">`): that page carries the proxy's URL and
 * a CSP whose `frame-ancestors` are the proxy's allowed origins. Attributes are read once, when the element connects.
 *
 * @summary A live fan poll in an isolated iframe.
 * @customElement fan-poll-frame
 * @attr poll-id - The poll to show (the iframe URL's `poll`).
 * @attr current - Instead of `poll-id`: the current poll of the clubs in `partner-ids`, followed as by `<fan-poll current>` (the iframe URL's `current`, with the partner ids). The iframe takes each poll's height: reserve the tallest on the element (`min-height`) so the page does not move when the poll changes.
 * @attr partner-ids - With `current`: the clubs' partner ids, one to ten uuids separated by spaces or commas.
 * @attr theme - `light` (default), `dark` or `auto`.
 * @attr transparent - No background of its own (the iframe URL's `transparent=1`).
 * @attr results - Who sees an open poll's shares: `always` (default), `after-vote` or `after-close` (the iframe URL's `results`; see `<fan-poll>`).
 * @attr lang - The language (`en`, `fr`, `es`, `pt`, `de`, `it`); else the nearest `lang` of the page.
 * @attr next-href - As on `<fan-poll>`: the club's next step, linked once the fan's vote is accepted and once the poll closed (it opens in the top-level page).
 * @attr next-label - As on `<fan-poll>`.
 * @attr get-tokens-href - As on `<fan-poll>`.
 * @attr verify-href - As on `<fan-poll>`: "Check this result", a template whose `{address}` becomes the poll's `blockchainAddress`.
 * @attr referrer - Tracking parameter, carried into sign-in and every event (as are the four below).
 * @attr campaign - Tracking parameter.
 * @attr param1 - Tracking parameter.
 * @attr param2 - Tracking parameter.
 * @attr param3 - Tracking parameter.
 * @fires fan-poll-ready - As on `<fan-poll>`, re-dispatched from the iframe's card (a `CustomEvent`, same detail).
 * @fires fan-poll-vote - As on `<fan-poll>`.
 * @fires fan-poll-voted - As on `<fan-poll>`.
 * @fires fan-poll-sign-in - As on `<fan-poll>`.
 * @fires fan-poll-error - As on `<fan-poll>`.
 * @fires fan-poll-current-changed - As on `<fan-poll>`: a `current` banner switched to its clubs' new current poll.
 * @fires fan-poll-next - As on `<fan-poll>`: the fan followed one of the partner's links.
 * @fires fan-poll-share - As on `<fan-poll>`: the fan shared the poll.
 * @cssproperty [--fan-poll-min-height=440px] - The iframe's height until its card has data.
 */
class FanPollFrame extends HTMLElement {
  private frame: HTMLIFrameElement | undefined;
  private readonly onMessage = (event: MessageEvent): void => {
    const frame = this.frame;
    if (!frame || event.source !== frame.contentWindow || event.origin !== embedPage.origin) return;
    const message = readFrameMessage(event.data);
    if (!message) return;
    if (message.type === 'size') frame.style.height = `${message.height}px`;
    else if (message.type === 'session') {
      // A banner's card changed the session: the other banners and the page's cards ask the proxy again.
      tellFrames(message.proxy, frame);
      window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: message.proxy }));
    } else if (message.type === 'vote') {
      // A banner's card learnt the fan's vote: the other banners and the page's cards show it and confirm it.
      tellFramesVote(message.hint, frame);
      window.dispatchEvent(new CustomEvent(voteHeardEvent, { detail: message.hint }));
    } else
      this.dispatchEvent(
        new CustomEvent(message.name, { bubbles: true, composed: true, detail: message.detail }),
      );
  };

  connectedCallback(): void {
    if (this.frame) return;
    const url = new URL(embedPage);
    const lang = this.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang;
    // A `current` banner names its clubs instead of a poll: its card follows their current poll.
    if (this.hasAttribute('current')) url.searchParams.set('current', this.getAttribute('partner-ids') ?? '');
    else url.searchParams.set('poll', this.getAttribute('poll-id') ?? '');
    const tracking = cleanTracking((key) => this.getAttribute(key));
    appendTracking(url.searchParams, tracking);
    for (const key of ['theme', 'lang', 'results']) {
      const value = key === 'lang' ? lang : this.getAttribute(key);
      if (value) url.searchParams.set(key, value);
    }
    if (this.hasAttribute('transparent')) url.searchParams.set('transparent', '1');
    for (const key of frameLinkNames) {
      const value = this.getAttribute(key);
      if (value) url.searchParams.set(key, value);
    }
    const frame = document.createElement('iframe');
    const back =
      pickedPoll === undefined || pickedPoll === this.getAttribute('poll-id') ? frameReturn : undefined;
    frame.src = back ? frameAddressBack(url.href, back) : url.href;
    if (back) frameReturn = undefined;
    frame.title = titles[lang.slice(0, 2).toLowerCase()] ?? 'Fan poll';
    frame.setAttribute('scrolling', 'no');
    frame.allow = bannerFrameAllow;
    // CSSOM, not a style attribute: allowed under a strict style-src.
    this.style.display = 'block';
    Object.assign(frame.style, {
      display: 'block',
      width: '100%',
      height: startHeight,
      border: '0',
      overflow: 'hidden',
    });
    // No `sandbox`: the banner's card may send this page to a sign-in without a pop-up, from the fan's click.
    frame.addEventListener('load', () => {
      frame.contentWindow?.postMessage({ source: frameSource.host, type: 'hello' }, embedPage.origin);
      // Where that sign-in comes back to (a message of its own: a frame page that does not know it ignores it).
      const page: FramePageMessage = { source: frameSource.host, type: 'page', page: location.href };
      frame.contentWindow?.postMessage(page, embedPage.origin);
    });
    window.addEventListener('message', this.onMessage);
    frames.add(frame);
    this.frame = frame;
    this.append(frame);
    this.checkOrigin(frame, tracking);
  }

  /**
   * A page the proxy does not allow gets a broken frame (`frame-ancestors`) and no event from it: the proxy says
   * whether that is why, and then the frame goes and the developer gets the error and the setting to change.
   */
  private checkOrigin(frame: HTMLIFrameElement, tracking: TrackingParameters): void {
    void refusedOrigin(proxyUrl).then((message) => {
      if (!message || this.frame !== frame) return;
      frames.delete(frame);
      frame.remove();
      this.frame = undefined;
      const detail = {
        pollId: this.getAttribute('poll-id') ?? '',
        tracking,
        code: 'origin-not-allowed',
        message,
      };
      this.dispatchEvent(new CustomEvent('fan-poll-error', { bubbles: true, composed: true, detail }));
    });
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    if (this.frame) frames.delete(this.frame);
    this.frame?.remove();
    this.frame = undefined;
  }
}

// Safe to load twice: the first copy wins.
try {
  if (!customElements.get('fan-poll-frame')) customElements.define('fan-poll-frame', FanPollFrame);
} catch (error) {
  console.error('Fan Polls: the iframe embed could not start.', error);
}

declare global {
  interface HTMLElementTagNameMap {
    'fan-poll-frame': FanPollFrame;
  }
}
