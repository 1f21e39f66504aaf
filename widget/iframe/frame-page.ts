/**
 * The iframe page's script (a module): one `<fan-poll>` configured from the URL, its poll read started at once, the
 * element code imported beside it; the page reports its height once the card has data (one step, no skeleton size)
 * and bridges the card's events to the host loader. It answers only after the parent's `hello`, and only to the
 * origin that said it.
 */
import { cardEventNames } from '../events/card-event-names.ts';
import type { FanPollEventDetail } from '../events/event-detail.ts';
import { prefetchPolls } from '../delivery/prefetch.ts';
import { readProxyUrl } from '../store/widget-config.ts';
import { trackingParameterNames } from '../../src/contracts/tracking.ts';
import { watchContentHeight } from './auto-size.ts';
import { frameCardSettings, type FrameCardSettings } from './frame-card-settings.ts';
import { hydrateFileName } from '../ssr/hydrate-file-name.ts';
import type * as PageWidgetModule from '../page-widget.ts';
import { sessionChangedEvent, sessionCheckEvent, sessionEventOrigin } from '../session/session-events.ts';
import { voteEventHint, voteHeardEvent, voteKnownEvent } from '../session/vote-hint.ts';
import {
  frameSource,
  isFrameHello,
  readHostPageMessage,
  readHostSessionMessage,
  readHostVoteMessage,
  type FrameToHostMessage,
} from './frame-messages.ts';

const maxQueued = 50;

/** What the page needs of the element code: `page-widget.ts`, or `fan-polls-hydrate.js` beside it (same exports). */
type PageWidget = Pick<typeof PageWidgetModule, 'startPageWidget' | 'frameTitle'>;

function start(): void {
  const params = new URLSearchParams(location.search);
  const content = document.getElementById('content');
  if (!content) return;
  const proxyMeta = document.querySelector<HTMLMetaElement>('meta[name="fan-polls-proxy"]')?.content;
  const proxyUrl = readProxyUrl(proxyMeta || location.origin);
  const nonce = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].find(
    (each) => each.src === import.meta.url,
  )?.nonce;

  const settings = frameCardSettings(params);
  if (settings.lang) document.documentElement.lang = settings.lang;
  // The proxy drew the card into the page (a declarative shadow root): the hydrating widget takes it over as it is.
  const rendered = content.querySelector('fan-poll');
  const card = rendered ?? cardOf(settings);
  // The partner's links, on a drawn card too (they show after the vote or the close, never in the drawing).
  for (const [name, value] of Object.entries(settings.links)) card.setAttribute(name, value);
  const pollId = settings.pollId;
  const prefetch = prefetchPolls(proxyUrl, [pollId]);
  // The build's hydrating widget is beside this script's folder. The base is a variable: Vite reads a literal
  // `new URL(..., import.meta.url)` as an asset pattern and inlines the folder.
  const scriptUrl = import.meta.url;
  const widget: Promise<PageWidget> = rendered?.shadowRoot
    ? (import(/* @vite-ignore */ new URL(`../${hydrateFileName}`, scriptUrl).href) as Promise<PageWidget>)
    : import('../page-widget.ts');

  // Nothing leaves this page before the parent's hello pins the origin to answer to.
  let hostOrigin: string | undefined;
  const queue: FrameToHostMessage[] = [];
  const send = (message: FrameToHostMessage): void => {
    if (hostOrigin) window.parent.postMessage(message, hostOrigin);
    else if (queue.length < maxQueued) queue.push(message);
  };
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || window.parent === window) return;
    // The host heard of a session change elsewhere on its page: this page's card asks the proxy again.
    const proxy = hostOrigin && event.origin === hostOrigin ? readHostSessionMessage(event.data) : undefined;
    if (proxy) {
      // This page's session ignores a proxy its card does not use.
      window.dispatchEvent(new CustomEvent(sessionCheckEvent, { detail: proxy }));
      return;
    }
    // The host's page address: where the card's sign-in without a pop-up comes back to (on the host's own origin).
    const page =
      hostOrigin && event.origin === hostOrigin ? readHostPageMessage(event.data, hostOrigin) : undefined;
    if (page) {
      card.signInPage = page;
      return;
    }
    // The host heard of the fan's vote elsewhere on its page: this page's card shows it and confirms it.
    const vote = hostOrigin && event.origin === hostOrigin ? readHostVoteMessage(event.data) : undefined;
    if (vote) {
      window.dispatchEvent(new CustomEvent(voteHeardEvent, { detail: vote }));
      return;
    }
    if (hostOrigin || !isFrameHello(event.data)) return;
    hostOrigin = event.origin;
    for (const message of queue.splice(0)) window.parent.postMessage(message, hostOrigin);
  });
  // This page's card signed in, out or as someone else: the host tells its page's cards and other banners.
  window.addEventListener(sessionChangedEvent, (event) => {
    const proxy = sessionEventOrigin(event);
    if (proxy) send({ source: frameSource.frame, type: 'session', proxy });
  });

  // This page's card cast or read the fan's vote: the host tells its page's cards and other banners.
  window.addEventListener(voteKnownEvent, (event) => {
    const hint = voteEventHint(event);
    if (hint) send({ source: frameSource.frame, type: 'vote', hint });
  });

  let sizing = false;
  const startSizing = (): void => {
    if (sizing) return;
    sizing = true;
    watchContentHeight(content, (height) => {
      send({ source: frameSource.frame, type: 'size', height });
    });
  };
  for (const name of cardEventNames) {
    card.addEventListener(name, (event) => {
      const detail = (event as Event & { detail: FanPollEventDetail }).detail;
      send({ source: frameSource.frame, type: 'event', name, detail: { ...detail } });
      if (name === 'fan-poll-ready' || name === 'fan-poll-error') startSizing();
      if (name === 'fan-poll-ready')
        void widget.then(({ frameTitle }) => {
          document.title = frameTitle(card);
          content.setAttribute('aria-label', document.title);
        });
    });
  }
  if (!rendered) content.append(card);
  // A drawn card has its height already: the banner takes it at once, not after the hydrating widget's read.
  else if (rendered.shadowRoot) startSizing();
  widget.then(
    ({ startPageWidget }) => {
      startPageWidget({ proxyUrl, nonce, prefetch });
    },
    (error: unknown) => {
      console.error('Fan Polls: the poll page could not load.', error);
      startSizing();
    },
  );
}

/** A new card configured from the page's URL, for a page the proxy sent without its card drawn. */
function cardOf(settings: FrameCardSettings): HTMLElementTagNameMap['fan-poll'] {
  // Attributes, not properties: the element is defined when its code arrives, and reads them then.
  const card = document.createElement('fan-poll');
  if (settings.currentOf === undefined) card.setAttribute('poll-id', settings.pollId);
  else {
    card.setAttribute('current', '');
    card.setAttribute('partner-ids', settings.currentOf);
  }
  card.setAttribute('eager', '');
  if (settings.theme) card.setAttribute('theme', settings.theme);
  if (settings.transparent) card.setAttribute('transparent', '');
  if (settings.results) card.setAttribute('results', settings.results);
  // Tracking parameters go on as attributes; the card validates them like any attribute.
  for (const key of trackingParameterNames) {
    const value = settings[key];
    if (value !== undefined) card.setAttribute(key, value);
  }
  return card;
}

try {
  start();
} catch (error) {
  console.error('Fan Polls: the poll page could not start.', error);
}
