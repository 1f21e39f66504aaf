import type { Target } from '../../support/find-target.ts';

export type { Target };

// What the fan's journey needs from a browser, whatever drives it: Chromium through playwright-core, Firefox ESR
// through puppeteer-core over WebDriver BiDi, WebKitGTK through WebKitWebDriver. Elements are named by a chain of
// CSS selectors, each step looking inside the previous match's shadow root (`'fan-poll >> [part~="answer"]'`).

/** A document the fan sees: a tab, a popup, or a frame inside one. */
export interface FanWindow {
  goto(url: string): Promise<void>;
  /** Runs `fn(arg)` in the document (not subject to the page's CSP) and returns its JSON result. */
  evaluate<A, R>(fn: (arg: A) => R, arg: A): Promise<Awaited<R>>;
  /** Whether the target is in the document now. */
  has(target: Target): Promise<boolean>;
  /** A real click (trusted, with user activation) on the target, which must exist. */
  click(target: Target): Promise<void>;
  /** Types `text` into the target input, replacing what is there. */
  fill(target: Target, text: string): Promise<void>;
  /** The document of the frame the target is (an iframe element). */
  frame(target: Target): Promise<FanWindow>;
  /** A PNG of the whole window (the top-level one, for a frame). */
  screenshot(path: string): Promise<void>;
  /** Whether the window was closed (a popup closing itself). */
  isClosed(): Promise<boolean>;
}

/** One fan's browser: a fresh profile, no cookies. */
export interface FanBrowser {
  readonly engine: 'chromium' | 'firefox' | 'webkit';
  /** A new tab. */
  open(url: string): Promise<FanWindow>;
  /** Runs `action` and returns the window it opened (a popup). */
  popupFrom(action: () => Promise<void>): Promise<FanWindow>;
  /**
   * The errors the engine reported so far in any of its windows and frames: console errors (a refused Content
   * Security Policy, a failed load, `console.error`) and uncaught exceptions. Chromium and Firefox only: WebKitWebDriver
   * has no console, so WebKit's are read in the page (`page-problems.ts`).
   */
  consoleErrors(): readonly string[];
  close(): Promise<void>;
}
