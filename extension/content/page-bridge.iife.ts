/**
 * The content script entry, built as one self-contained IIFE (no loader, no web-accessible chunk a page could probe).
 * It is registered at run time only for the sites the fan connected (`site-scripts.ts`), at document_start, so that
 * it sees the fan's first click before any page script and answers the `hello` handshake as soon as a card asks.
 */
import browser from 'webextension-polyfill';
import { startPageBridge } from './page-bridge.ts';
import { watchUserActivation } from './user-activation.ts';

// Injected again into an open tab when its site is connected: one bridge per frame.
const marker = Symbol.for('fan-polls-page-bridge');
const scope = globalThis as { [marker]?: true };
if (!scope[marker]) {
  scope[marker] = true;
  startPageBridge({
    window,
    send: (message) => browser.runtime.sendMessage(message),
    activation: watchUserActivation(window),
  });
}
