import {
  proxyRoutes,
  type ExtensionCodeExchange,
  type ExtensionTokenSet,
} from '../../src/contracts/proxy-contract.ts';
import {
  proxyClient,
  proxyUnexpectedAnswer,
  proxyUnreachable,
  type ProxyClientError,
  type ProxyFetch,
} from '../../src/contracts/proxy-client.ts';
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
    private readonly fetch: ProxyFetch,
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
    try {
      return await proxyClient(await this.proxyUrl(), this.fetch, requestTimeoutMs).call(path, {
        method: 'POST',
        body,
        credentials: 'omit',
      });
    } catch (cause) {
      const error = cause as ProxyClientError;
      const { status = 0, code } = error;
      if (code === proxyUnreachable) throw new ExtensionError('unavailable', error.message, { cause });
      const proxyCode = code === proxyUnexpectedAnswer ? undefined : code;
      // A success whose body is not JSON: no token set in it (`parseTokenSet` says so), nothing to read for a revoke.
      if (proxyCode === undefined && status < 300) return undefined;
      // Throttling and server errors are worth another try later; so is anything but the proxy's own word that
      // the refresh token is refused (a wrong proxy URL's 404 or a 403 must not sign the fan out).
      const refused = refusedCode !== 'invalid_grant' || proxyCode === 'invalid_grant';
      if (status === 429 || status >= 500 || !refused) {
        throw new ExtensionError('unavailable', `The partner proxy answered ${status}.`, { cause });
      }
      throw new ExtensionError(
        refusedCode,
        `The partner proxy refused the request (${proxyCode ?? status}).`,
        { cause },
      );
    }
  }
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
