import {
  proxyRoutes,
  type ExtensionCodeExchange,
  type ExtensionTokenSet,
} from '../../src/contracts/proxy-contract.ts';
import type { FetchLike } from '../../src/platform/http.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

const requestTimeoutMs = 15_000;

/**
 * The proxy's token mediation for the extension: the proxy adds the partner's secret, the extension never sees it.
 * Error messages never repeat a token or a code.
 */
export class ProxyTokenClient {
  constructor(
    private readonly proxyUrl: () => Promise<string>,
    private readonly fetch: FetchLike,
  ) {}

  async exchangeCode(exchange: ExtensionCodeExchange): Promise<ExtensionTokenSet> {
    return parseTokenSet(await this.#post(proxyRoutes.extensionToken, exchange, 'sign_in_failed'));
  }

  /** Throws `invalid_grant` when the refresh token is no longer usable; `unavailable` when worth trying again. */
  async refresh(refreshToken: string): Promise<ExtensionTokenSet> {
    return parseTokenSet(await this.#post(proxyRoutes.extensionRefresh, { refreshToken }, 'invalid_grant'));
  }

  async revoke(token: string): Promise<void> {
    await this.#post(proxyRoutes.extensionRevoke, { token }, 'unavailable');
  }

  async #post(
    path: string,
    body: unknown,
    refusedCode: 'sign_in_failed' | 'invalid_grant' | 'unavailable',
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await this.fetch(`${await this.proxyUrl()}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        credentials: 'omit',
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (cause) {
      throw new ExtensionError('unavailable', 'The partner proxy could not be reached.', { cause });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      throw new ExtensionError('unavailable', 'The partner proxy’s answer broke off.', { cause });
    }
    if (response.ok) return text === '' ? undefined : parseJson(text);
    const code = proxyErrorCode(parseJson(text));
    // Throttling and server errors are worth another try later; so is anything but the proxy's own word that the
    // refresh token is refused (a wrong proxy URL's 404 or a 403 must not sign the fan out).
    const refused = refusedCode !== 'invalid_grant' || code === 'invalid_grant';
    if (response.status === 429 || response.status >= 500 || !refused) {
      throw new ExtensionError('unavailable', `The partner proxy answered ${response.status}.`);
    }
    throw new ExtensionError(
      refusedCode,
      `The partner proxy refused the request (${code ?? response.status}).`,
    );
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function proxyErrorCode(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body['error'])) return undefined;
  const code = body['error']['code'];
  return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : undefined;
}

function parseTokenSet(body: unknown): ExtensionTokenSet {
  if (!isRecord(body) || typeof body['accessToken'] !== 'string' || body['accessToken'] === '') {
    throw new ExtensionError('unavailable', 'The partner proxy answered without a token set.');
  }
  const { accessToken, refreshToken, expiresIn } = body;
  return {
    accessToken,
    ...(typeof refreshToken === 'string' && refreshToken !== '' ? { refreshToken } : {}),
    ...(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresIn } : {}),
  };
}
