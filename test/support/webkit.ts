// How the browser tests start WebKit: Debian's WebKitGTK MiniBrowser, driven by WebKitWebDriver
// (`apt-get install -y webkit2gtk-driver xvfb`) under a private Xvfb display. Never a downloaded browser.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { WebDriverSession } from './webdriver-session.ts';
import { freePort } from './free-port.ts';
import { waitUntil } from './wait-until.ts';

const miniBrowser = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

export function webkitInstalled(): boolean {
  return ['/usr/bin/WebKitWebDriver', '/usr/bin/Xvfb', miniBrowser].every((path) => existsSync(path));
}

/** Xvfb and WebKitWebDriver, running until `close()`; each `newSession()` is a fresh MiniBrowser (no cookies). */
export interface WebKitDriver {
  /** The private X display the browsers draw on (`:N`). */
  readonly display: string;
  newSession(options?: WebKitSessionOptions): Promise<WebDriverSession>;
  close(): Promise<void>;
}

export interface WebKitSessionOptions {
  /** The test stack's self-signed https certificate is taken. */
  readonly acceptInsecureCerts?: boolean;
  /**
   * Intelligent Tracking Prevention on (MiniBrowser's `--enable-itp`), as in Safari: no third-party cookie at all.
   * Without it, WebKitGTK's default (`no-third-party`) still sends its cookies to a third-party site that
   * has cookies from a visit of its own.
   */
  readonly itp?: boolean;
  /** The window's size in CSS pixels (default: MiniBrowser's own, desktop-sized). */
  readonly windowSize?: { readonly width: number; readonly height: number };
}

export async function startWebKitDriver(): Promise<WebKitDriver> {
  const display = `:${String(100 + Math.floor(Math.random() * 800))}`;
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x900x24', '-nolisten', 'tcp'], {
    stdio: 'ignore',
  });
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${String(port)}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  const driverUrl = `http://127.0.0.1:${String(port)}`;
  await waitUntilReady(driverUrl);
  const sessions: WebDriverSession[] = [];
  return {
    display,
    async newSession(options = {}) {
      const session = await WebDriverSession.create(driverUrl, {
        'webkitgtk:browserOptions': {
          binary: miniBrowser,
          args: ['--automation', ...(options.itp === true ? ['--enable-itp'] : [])],
        },
        ...(options.acceptInsecureCerts === true && { acceptInsecureCerts: true }),
      });
      if (options.windowSize)
        await session.setWindowSize(options.windowSize.width, options.windowSize.height);
      sessions.push(session);
      return session;
    },
    async close() {
      await Promise.all(sessions.map((session) => session.close()));
      await Promise.all([stop(driver), stop(xvfb)]);
    },
  };
}

async function waitUntilReady(driverUrl: string): Promise<void> {
  await waitUntil(
    () => fetch(`${driverUrl}/status`).then((response) => response.ok),
    `WebKitWebDriver to answer at ${driverUrl}`,
  );
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}
