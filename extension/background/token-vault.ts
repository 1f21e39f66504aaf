import type { ExtensionTokenSet } from '../../src/contracts/proxy-contract.ts';
import { TypedStorageItem, type StorageAreaLike } from '../shared/typed-storage.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

/** The access token and what the extension knows about it; kept in `storage.session` (trusted contexts only). */
export interface AccessGrant {
  readonly accessToken: string;
  /** Epoch ms when the token was stored. */
  readonly issuedAt: number;
  /** Epoch ms when it expires; absent when the platform did not say. */
  readonly expiresAt?: number;
  readonly userId?: string;
}

export interface VaultContents {
  readonly access?: AccessGrant;
  readonly refreshToken?: string;
  readonly userId?: string;
}

const accessGrantKey = 'accessGrant';
const sessionIdKey = 'fanSessionId';
const refreshGrantKey = 'refreshGrant';

/** The refresh token and the fan it belongs to; kept in the extension's IndexedDB. */
export interface RefreshGrant {
  readonly refreshToken: string;
  readonly userId?: string;
}

function parseRefreshGrant(value: unknown): RefreshGrant | undefined {
  if (!isRecord(value)) return undefined;
  const { refreshToken, userId } = value;
  if (typeof refreshToken !== 'string' || refreshToken === '') return undefined;
  return typeof userId === 'string' ? { refreshToken, userId } : { refreshToken };
}

function parseAccessGrant(value: unknown): AccessGrant | undefined {
  if (!isRecord(value)) return undefined;
  const { accessToken, issuedAt, expiresAt, userId } = value;
  if (typeof accessToken !== 'string' || accessToken === '' || typeof issuedAt !== 'number') return undefined;
  return {
    accessToken,
    issuedAt,
    ...(typeof expiresAt === 'number' ? { expiresAt } : {}),
    ...(typeof userId === 'string' ? { userId } : {}),
  };
}

/**
 * The fan's tokens, in two places no content script can read: the access token in `storage.session` (which the
 * background restricts to trusted contexts) and the refresh token in the extension's IndexedDB.
 */
export class TokenVault {
  readonly #access: TypedStorageItem<AccessGrant | undefined>;
  readonly #refresh: TypedStorageItem<RefreshGrant | undefined>;
  readonly #sessionId: TypedStorageItem<string | undefined>;

  /** `session`: `storage.session`; `persistent`: the extension's IndexedDB. */
  constructor(session: StorageAreaLike, persistent: StorageAreaLike) {
    this.#access = new TypedStorageItem<AccessGrant | undefined>(
      session,
      accessGrantKey,
      undefined,
      parseAccessGrant,
    );
    this.#refresh = new TypedStorageItem<RefreshGrant | undefined>(
      persistent,
      refreshGrantKey,
      undefined,
      parseRefreshGrant,
    );
    this.#sessionId = new TypedStorageItem<string | undefined>(session, sessionIdKey, undefined, (value) =>
      typeof value === 'string' && value !== '' ? value : undefined,
    );
  }

  /** The id of the fan's session (see `FanSession.sessionId`), kept with the access token. */
  readSessionId(): Promise<string | undefined> {
    return this.#sessionId.get();
  }

  async writeSessionId(sessionId: string): Promise<void> {
    await this.#sessionId.set(sessionId);
  }

  async read(): Promise<VaultContents> {
    const [access, grant] = await Promise.all([this.#access.get(), this.#refresh.get()]);
    const userId = access?.userId ?? grant?.userId;
    return {
      ...(access ? { access } : {}),
      ...(grant ? { refreshToken: grant.refreshToken } : {}),
      ...(userId ? { userId } : {}),
    };
  }

  /** Stores a token set from the proxy; a set without a refresh token keeps the one already held. */
  async store(tokens: ExtensionTokenSet, now: number, userId?: string): Promise<AccessGrant> {
    const previous = await this.#refresh.get();
    const keptUserId = userId ?? previous?.userId;
    const access: AccessGrant = {
      accessToken: tokens.accessToken,
      issuedAt: now,
      ...(tokens.expiresIn !== undefined ? { expiresAt: now + tokens.expiresIn * 1000 } : {}),
      ...(keptUserId ? { userId: keptUserId } : {}),
    };
    const refreshToken = tokens.refreshToken ?? previous?.refreshToken;
    if (refreshToken)
      await this.#refresh.set({ refreshToken, ...(keptUserId ? { userId: keptUserId } : {}) });
    await this.#access.set(access);
    return access;
  }

  async setUserId(userId: string): Promise<void> {
    const [access, grant] = await Promise.all([this.#access.get(), this.#refresh.get()]);
    if (access) await this.#access.set({ ...access, userId });
    if (grant) await this.#refresh.set({ ...grant, userId });
  }

  /** Forgets every token, both places. */
  async wipe(): Promise<void> {
    await Promise.all([this.#access.remove(), this.#refresh.remove(), this.#sessionId.remove()]);
  }
}
