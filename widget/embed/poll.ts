/**
 * The iframe page's script: one `<fan-poll>` configured from the URL, sized to its content and bridged to the host
 * loader. It answers only after the parent's `hello`, and only to the origin that said it.
 */
import { cardEventNames } from '../events/card-event-names.ts';
import type { FanPollEventDetail } from '../events/event-detail.ts';
import { watchContentHeight } from '../frame/auto-size.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { frameSource, isFrameHello, type FrameToHostMessage } from '../messages/frame-messages.ts';
import { startWidget } from '../runtime/start-widget.ts';
import { readProxyUrl } from '../store/widget-config.ts';
import { trackingKeys } from '../tracking/tracking.ts';

const maxQueued = 50;

function start(): void {
  const params = new URLSearchParams(location.search);
  const content = document.getElementById('content');
  if (!content) return;
  const proxyMeta = document.querySelector<HTMLMetaElement>('meta[name="fan-polls-proxy"]')?.content;
  const script = document.currentScript as HTMLScriptElement | null;
  // The parts are one folder up, beside `fan-polls.js`: one copy of each for both embeds.
  startWidget({
    partsBase: new URL('../', script?.src || location.href).href,
    nonce: script?.nonce,
    proxyUrl: readProxyUrl(proxyMeta || location.origin),
  });

  const lang = params.get('lang');
  if (lang && /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(lang)) document.documentElement.lang = lang;
  const card = document.createElement('fan-poll');
  card.pollId = params.get('poll') ?? '';
  card.eager = true;
  const theme = params.get('theme');
  if (theme === 'dark' || theme === 'light' || theme === 'auto') card.theme = theme;
  if (params.get('transparent') === '1') card.transparent = true;
  // Tracking parameters go on as attributes; the card validates them like any attribute.
  for (const key of trackingKeys) {
    const value = params.get(key);
    if (value !== null) card.setAttribute(key, value);
  }

  // Nothing leaves this page before the parent's hello pins the origin to answer to.
  let hostOrigin: string | undefined;
  const queue: FrameToHostMessage[] = [];
  const send = (message: FrameToHostMessage): void => {
    if (hostOrigin) window.parent.postMessage(message, hostOrigin);
    else if (queue.length < maxQueued) queue.push(message);
  };
  window.addEventListener('message', (event) => {
    if (hostOrigin || event.source !== window.parent || window.parent === window || !isFrameHello(event.data))
      return;
    hostOrigin = event.origin;
    for (const message of queue.splice(0)) window.parent.postMessage(message, hostOrigin);
  });

  for (const name of cardEventNames) {
    card.addEventListener(name, (event) => {
      const detail = (event as Event & { detail: FanPollEventDetail }).detail;
      send({ source: frameSource.frame, type: 'event', name, detail: { ...detail } });
      if (name === 'fan-poll-ready') {
        const question = card.shadowRoot?.querySelector('legend')?.textContent.trim() ?? '';
        document.title = resolveLanguage(card).strings.frameTitle(question);
      }
    });
  }
  content.append(card);
  watchContentHeight(content, (height) => {
    send({ source: frameSource.frame, type: 'size', height });
  });
}

try {
  start();
} catch (error) {
  console.error('Fan Polls: the poll page could not start.', error);
}
