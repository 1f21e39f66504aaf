import type { Runtime } from 'webextension-polyfill';

/** What the browser tells a listener about a message's sender; Chromium adds `origin`. */
export type MessageSenderLike = Pick<Runtime.MessageSender, 'id' | 'url' | 'tab' | 'frameId'> & {
  readonly origin?: string;
};

/**
 * Who sent a message. `sender.tab` is set for extension pages opened in a tab too, so the kind comes from the origin:
 * the extension's own origin is one of its pages; an http(s) origin in a tab is our content script in a frame of that
 * origin. `topOrigin` is the origin of the tab's top-level page, as the browser reports it (the address bar's site),
 * and undefined when the browser does not tell (the extension has no access to that site).
 */
export type SenderInfo =
  | { readonly kind: 'extension-page' }
  | {
      readonly kind: 'content-script';
      readonly frameOrigin: string;
      readonly topOrigin: string | undefined;
      readonly tabId: number;
    }
  | { readonly kind: 'unknown' };

export type SenderKind = SenderInfo['kind'];

export function classifySender(
  sender: MessageSenderLike,
  runtimeId: string,
  extensionOrigin: string,
): SenderInfo {
  if (sender.id !== runtimeId) return { kind: 'unknown' };
  const origin = senderOrigin(sender);
  if (origin === undefined) return { kind: 'unknown' };
  if (origin === extensionOrigin) return { kind: 'extension-page' };
  const tabId = sender.tab?.id;
  if (tabId === undefined || !/^https?:\/\/[^/]+$/.test(origin)) return { kind: 'unknown' };
  const tabUrl = sender.tab?.url;
  const topOrigin = tabUrl === undefined ? undefined : originOf(tabUrl);
  return { kind: 'content-script', frameOrigin: origin, topOrigin, tabId };
}

/** scheme://host[:port] of a URL; unlike `URL.origin` also for `chrome-extension:` and `moz-extension:` everywhere. */
export function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { protocol, host } = new URL(url);
  return host === '' ? undefined : `${protocol}//${host}`;
}

function senderOrigin(sender: MessageSenderLike): string | undefined {
  // Firefox sends no `origin`; the frame's URL gives it (about:blank, data: and opaque origins are refused).
  const fromUrl = sender.url === undefined ? undefined : originOf(sender.url);
  const origin = sender.origin ?? fromUrl;
  if (origin === undefined || origin === 'null') return undefined;
  // Chromium's origin and url must agree; a mismatch means something odd (about:blank, srcdoc): refuse.
  if (fromUrl !== origin) return undefined;
  return origin;
}
