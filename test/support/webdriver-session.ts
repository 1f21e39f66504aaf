// A minimal W3C WebDriver (classic) client over fetch: just the commands the fan journey uses, for engines that have
// no CDP or BiDi driver here (WebKitGTK's WebKitWebDriver).

/** The key under which WebDriver returns an element reference (W3C WebDriver, "web element identifier"). */
const elementKey = 'element-6066-11e4-a52e-4f735466cecf';

export interface WebDriverElement {
  readonly [elementKey]: string;
}

export class WebDriverError extends Error {
  override readonly name = 'WebDriverError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  static async create(driverUrl: string, capabilities: Record<string, unknown>): Promise<WebDriverSession> {
    const value = await command<{ sessionId: string }>(`${driverUrl}/session`, 'POST', {
      capabilities: { alwaysMatch: capabilities },
    });
    return new WebDriverSession(`${driverUrl}/session/${value.sessionId}`, value.sessionId);
  }

  navigate(url: string): Promise<void> {
    return this.send('POST', '/url', { url });
  }

  /** Runs `fn(arg)` in the current browsing context and returns its (JSON or element) result. */
  execute<A, R>(fn: (arg: A) => R, arg: A): Promise<Awaited<R>> {
    return this.send('POST', '/execute/async', {
      script: `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${fn.toString()})(arguments[0])).then(done, (error) => done({ __error: String(error) }));`,
      args: [arg],
    }).then((value) => {
      if (value !== null && typeof value === 'object' && '__error' in value) {
        throw new WebDriverError('script error', String(value.__error));
      }
      return value as Awaited<R>;
    });
  }

  click(element: WebDriverElement): Promise<void> {
    return this.send('POST', `/element/${element[elementKey]}/click`, {});
  }

  async fill(element: WebDriverElement, text: string): Promise<void> {
    await this.send('POST', `/element/${element[elementKey]}/clear`, {});
    await this.send('POST', `/element/${element[elementKey]}/value`, { text });
  }

  /** Sets the current window's outer size in CSS pixels (a phone-sized window: 390 x 844). */
  async setWindowSize(width: number, height: number): Promise<void> {
    await this.send('POST', '/window/rect', { width, height });
  }

  windowHandles(): Promise<string[]> {
    return this.send('GET', '/window/handles');
  }

  switchToWindow(handle: string): Promise<void> {
    return this.send('POST', '/window', { handle });
  }

  /** `null`: the top-level browsing context; an element: the frame it is. */
  switchToFrame(frame: WebDriverElement | null): Promise<void> {
    return this.send('POST', '/frame', { id: frame });
  }

  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.send<string>('GET', '/screenshot'), 'base64');
  }

  async close(): Promise<void> {
    await command(this.base, 'DELETE').catch(() => undefined);
  }

  private send<R>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<R> {
    return command<R>(this.base + path, method, body);
  }
}

export function isWebDriverElement(value: unknown): value is WebDriverElement {
  return typeof value === 'object' && value !== null && elementKey in value;
}

async function command<R>(url: string, method: string, body?: unknown): Promise<R> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000),
  });
  const payload = (await response.json()) as { value: unknown };
  if (!response.ok) {
    const error = payload.value as { error?: string; message?: string };
    throw new WebDriverError(error.error ?? String(response.status), error.message ?? '');
  }
  return payload.value as R;
}
