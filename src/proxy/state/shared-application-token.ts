import { PlatformError } from '../../platform/errors.ts';
import type { OAuthClient, TokenSet } from '../../platform/oauth.ts';
import { TokenKeeper, defaultRefreshMarginMs } from '../../platform/token-keeper.ts';
import type { ProxyLogger } from '../logger.ts';
import { keyPrefix, type KeyValueStore } from './key-value-store.ts';
import { sleep, tryLock } from './store-lock.ts';
import type { TokenCipher } from './token-cipher.ts';

const tokenKey = 'application-token';
const lockKey = 'lock:application-token';
/** What the sealed token is bound to: its full key, as before the store (a token stored by an older version opens). */
const sealedAs = keyPrefix + tokenKey;

/**
 * The application's client-credentials token, shared by every instance through the store (Redis, encrypted), so N instances
 * do not each fetch one: an instance takes the stored token while it is good, and only the holder of a short lock
 * asks the platform for a new one. Public reads must not depend on Redis: when it fails, the instance fetches its
 * own token as it would alone.
 */
export function sharedApplicationTokenKeeper(
  oauth: Pick<OAuthClient, 'clientCredentials'>,
  store: KeyValueStore,
  cipher: TokenCipher,
  logger: ProxyLogger,
  now: () => number,
): TokenKeeper {
  const usable = (tokens: TokenSet, current: TokenSet | undefined) =>
    tokens.accessToken !== current?.accessToken &&
    (tokens.expiresAt === undefined || now() < tokens.expiresAt - defaultRefreshMarginMs);
  const read = async (): Promise<TokenSet | undefined> => {
    const sealed = await store.get(tokenKey);
    const plain = sealed === undefined ? undefined : await cipher.open(sealed, sealedAs);
    return plain === undefined ? undefined : (JSON.parse(plain) as TokenSet);
  };
  const obtainShared = async (current: TokenSet | undefined): Promise<TokenSet> => {
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const stored = await read();
      if (stored !== undefined && usable(stored, current)) return stored;
      const release = await tryLock(store, lockKey, 10_000);
      if (release === undefined) {
        await sleep(50);
        continue;
      }
      try {
        const again = await read();
        if (again !== undefined && usable(again, current)) return again;
        const fresh = await oauth.clientCredentials();
        const lifetime = fresh.expiresAt === undefined ? 3_600_000 : fresh.expiresAt - now();
        if (lifetime > 0)
          await store.set(tokenKey, await cipher.seal(JSON.stringify(fresh), sealedAs), lifetime);
        return fresh;
      } finally {
        await release();
      }
    }
    return oauth.clientCredentials();
  };
  return new TokenKeeper({
    now,
    obtain: async (current) => {
      try {
        return await obtainShared(current);
      } catch (error) {
        if (error instanceof PlatformError) throw error;
        logger.log('warn', 'application_token_unshared', { reason: 'redis_unavailable' });
        return oauth.clientCredentials();
      }
    },
  });
}
