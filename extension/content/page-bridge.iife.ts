/**
 * The content script entry, built as one self-contained IIFE (no loader, no web-accessible chunk a page could probe)
 * and run at document_start so that the `hello` handshake is answered as soon as a card asks.
 */
import browser from 'webextension-polyfill';
import { startPageBridge } from './page-bridge.ts';

startPageBridge({
  window,
  send: (message) => browser.runtime.sendMessage(message),
  now: () => Date.now(),
});
