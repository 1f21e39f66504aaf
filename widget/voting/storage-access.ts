/**
 * A frame of the proxy's own origin (the banner's page) on another site, where the browser keeps no third-party cookie
 * (Safari, WebKit with tracking prevention): after a sign-in whose cookie did not stick, the fan's next click asks the
 * browser for the frame's own cookies (`document.requestStorageAccess()`, the browser's prompt). Once granted, the
 * frame's requests carry the session the sign-in's visit to the proxy's site left there. Nothing of the session ever
 * reaches a script: the cookie stays HttpOnly.
 */
import { storageAccessAskable, WidgetError } from './widget-error.ts';

/** This document can ask for its cookies: it is a frame on the proxy's origin, in a browser with the API. */
export function canAskStorageAccess(proxyOrigin: string): boolean {
  return (
    window.top !== window &&
    location.origin === proxyOrigin &&
    typeof document.requestStorageAccess === 'function'
  );
}

/** `cookies-blocked` as the error to show where the next click asks (see `storageAccessAskable`). */
export function askableCookiesBlocked(error: WidgetError): WidgetError {
  return new WidgetError(error.code, error.message, { cause: storageAccessAskable });
}

/**
 * Straight from the fan's click: the browser's prompt. Resolves once granted; rejects with today's `cookies-blocked`
 * where the browser refuses.
 */
export function requestStorageAccess(): Promise<void> {
  return document.requestStorageAccess().catch((error: unknown) => {
    throw new WidgetError('cookies-blocked', 'The browser refused this frame its cookies.', { cause: error });
  });
}
