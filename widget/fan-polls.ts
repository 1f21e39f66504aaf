/**
 * The script-tag embed: `<script async src=".../fan-polls.js" data-proxy="https://proxy.example"></script>`.
 * Defines `<fan-poll>` and `<fan-poll-list>` (elements already in the page, or added later, upgrade), and makes the
 * page's live store read through the proxy. Voting, the list's body and languages other than English load later,
 * from files beside this one. Loading it twice is harmless.
 */
import { startWidget } from './runtime/start-widget.ts';
import { readProxyUrl } from './store/widget-config.ts';

try {
  // A classic (IIFE) script: `currentScript` is this tag while it runs, async or not.
  const script = document.currentScript as HTMLScriptElement | null;
  startWidget({
    partsBase: script?.src || location.href,
    nonce: script?.nonce,
    proxyUrl: readProxyUrl(script?.dataset.proxy),
  });
} catch (error) {
  console.error('Fan Polls could not start.', error);
}
