// What a script of the page (or of a frame of the page) can read that could hold a credential: its cookies, its
// storages, its markup, and every message the page heard. None may hold a token (canaries) or a session id.
import { expect } from 'vitest';
import { canaryTokenPrefix } from '../../support/canary.ts';
import type { FanWindow } from './fan-browser.ts';

/** A session id as the proxy makes them (`<grant>.<random>`, 256 bits each, base64url). */
const sessionIdPattern = /[\w-]{43}\.[\w-]{43}/;

/** Runs in the page: every message it hears from now on is kept, as a page script could keep it. */
export function recordPageMessages(): boolean {
  const kept: string[] = [];
  (window as unknown as { fanPollsHeard: string[] }).fanPollsHeard = kept;
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    kept.push(typeof event.data === 'undefined' ? '' : JSON.stringify(event.data));
  });
  return true;
}

/** Runs in the document: everything readable there, as text. */
export function readable(): string {
  const stores = [localStorage, sessionStorage].map((store) =>
    Object.keys(store).map((key) => `${key}=${store.getItem(key) ?? ''}`),
  );
  const heard = (window as unknown as { fanPollsHeard?: string[] }).fanPollsHeard ?? [];
  return JSON.stringify({ cookie: document.cookie, stores, html: document.documentElement.outerHTML, heard });
}

export async function assertNothingReadable(...windows: FanWindow[]): Promise<void> {
  for (const window of windows) {
    const seen = await window.evaluate(readable, undefined);
    expect(seen).not.toContain(canaryTokenPrefix);
    expect(seen).not.toContain('fan-polls-session=');
    expect(seen).not.toMatch(sessionIdPattern);
  }
}
