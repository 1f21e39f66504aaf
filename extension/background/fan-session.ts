import type { ExtensionTokenSet } from '../../src/contracts/proxy-contract.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { ProxyTokenClient } from './proxy-token-client.ts';
import { isExpired, isRefreshDue, refreshDueAt, refreshRetryDelayMs } from './refresh-timing.ts';
import type { AccessGrant, TokenVault } from './token-vault.ts';

/** Runs a task while holding a named lock; `navigator.locks` in the extension, a fake in tests. */
export type LockRunner = <T>(name: string, task: () => Promise<T>) => Promise<T>;

export const navigatorLocks: LockRunner = (name, task) => navigator.locks.request(name, task);

export interface AlarmsLike {
  create(name: string, info: { when: number }): void | Promise<void>;
  clear(name: string): Promise<boolean>;
}

export const refreshAlarmName = 'fan-polls-refresh';
const refreshLockName = 'fan-polls-token-refresh';

export interface FanSessionDependencies {
  readonly vault: TokenVault;
  readonly proxy: Pick<ProxyTokenClient, 'refresh' | 'revoke'>;
  readonly alarms: AlarmsLike;
  readonly withLock: LockRunner;
  readonly now: () => number;
  /** Runs whenever the session ends (sign-out, or the refresh token refused): what belonged to this fan goes too. */
  readonly onEnded?: () => Promise<void>;
  /** Runs when a new session starts (sign-in, or another account's id learnt): the old session's proposals end. */
  readonly onChanged?: () => void;
}

export interface SessionStatus {
  readonly signedIn: boolean;
  readonly userId?: string;
  /** Changes on every sign-in, sign-out and change of account; set while signed in. */
  readonly sessionId?: string;
}

/**
 * The fan's session in the background: hands out a valid access token, refreshes it before expiry (one refresh at a
 * time, across every context, because refresh tokens rotate), and ends the session cleanly.
 */
export class FanSession {
  /** Session-id writes one after another, so that two first reads after a browser restart agree on one id. */
  #sessionIdQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: FanSessionDependencies) {}

  async status(): Promise<SessionStatus> {
    const { access, refreshToken, userId } = await this.deps.vault.read();
    const signedIn = Boolean(refreshToken) || (access !== undefined && !isExpired(access, this.deps.now()));
    if (!signedIn) return { signedIn: false };
    const sessionId = await this.#sessionId();
    return { signedIn, ...(userId ? { userId } : {}), sessionId };
  }

  /** The current session's id (one is made when none is kept: the browser restarted with a refresh token). */
  #sessionId(renew = false): Promise<string> {
    const next = this.#sessionIdQueue.then(async () => {
      const kept = renew ? undefined : await this.deps.vault.readSessionId();
      if (kept) return kept;
      const fresh = crypto.randomUUID();
      await this.deps.vault.writeSessionId(fresh);
      return fresh;
    });
    this.#sessionIdQueue = next.catch(() => undefined);
    return next;
  }

  /** A token good for a call now, refreshed first when due. Throws `signed_out` or `invalid_grant`. */
  async accessToken(): Promise<string> {
    const { access, refreshToken } = await this.deps.vault.read();
    const now = this.deps.now();
    if (access && !isRefreshDue(access, now)) return access.accessToken;
    if (!refreshToken) {
      if (access && !isExpired(access, now)) return access.accessToken;
      throw new ExtensionError('signed_out', 'Sign in with the Fan Polls extension first.');
    }
    try {
      return (await this.refresh(access?.accessToken)).accessToken;
    } catch (error) {
      // A refresh that failed for a passing reason still leaves a token that has not expired yet.
      if (
        error instanceof ExtensionError &&
        error.code === 'unavailable' &&
        access &&
        !isExpired(access, this.deps.now())
      ) {
        return access.accessToken;
      }
      throw error;
    }
  }

  /**
   * Refreshes unless another caller already replaced `staleAccessToken` while this one waited for the lock.
   * `invalid_grant` signs the fan out; a passing failure schedules another try.
   */
  async refresh(staleAccessToken?: string): Promise<AccessGrant> {
    return this.deps.withLock(refreshLockName, async () => {
      const { access, refreshToken } = await this.deps.vault.read();
      if (access && access.accessToken !== staleAccessToken && !isRefreshDue(access, this.deps.now()))
        return access;
      if (!refreshToken)
        throw new ExtensionError('signed_out', 'Sign in with the Fan Polls extension first.');
      let tokens: ExtensionTokenSet;
      try {
        tokens = await this.deps.proxy.refresh(refreshToken);
      } catch (error) {
        if (error instanceof ExtensionError && error.code === 'invalid_grant') {
          await this.#forget();
          throw new ExtensionError('invalid_grant', 'The session ended; sign in again.', { cause: error });
        }
        await this.deps.alarms.create(refreshAlarmName, { when: this.deps.now() + refreshRetryDelayMs });
        throw error;
      }
      const next = await this.deps.vault.store(tokens, this.deps.now());
      await this.schedule(next);
      return next;
    });
  }

  /** Keeps a fresh token set (after sign-in) and schedules its refresh. */
  async accept(tokens: ExtensionTokenSet, userId?: string): Promise<AccessGrant> {
    const grant = await this.deps.vault.store(tokens, this.deps.now(), userId);
    await this.#sessionId(true);
    this.deps.onChanged?.();
    await this.schedule(grant);
    return grant;
  }

  /** The fan's id as the platform says it; another account than the one known is another session. */
  async rememberUserId(userId: string): Promise<void> {
    const { userId: known } = await this.deps.vault.read();
    await this.deps.vault.setUserId(userId);
    if (known !== undefined && known !== userId) {
      await this.#sessionId(true);
      this.deps.onChanged?.();
    }
  }

  /** (Re-)creates the refresh alarm from what the vault holds: on worker start and after every refresh. */
  async schedule(grant?: AccessGrant): Promise<void> {
    const current = grant ?? (await this.deps.vault.read()).access;
    const dueAt = current ? refreshDueAt(current) : undefined;
    if (dueAt === undefined) {
      const { refreshToken } = await this.deps.vault.read();
      // A refresh token but no access token (the browser restarted): refresh now-ish.
      if (!current && refreshToken)
        await this.deps.alarms.create(refreshAlarmName, { when: this.deps.now() + 1000 });
      return;
    }
    await this.deps.alarms.create(refreshAlarmName, { when: Math.max(dueAt, this.deps.now() + 1000) });
  }

  /** The refresh alarm fired. Failures are handled inside `refresh` (sign-out or retry). */
  async onRefreshAlarm(): Promise<void> {
    const { access, refreshToken } = await this.deps.vault.read();
    if (!refreshToken) return;
    try {
      await this.refresh(access?.accessToken);
    } catch {
      // Already handled: signed out cleanly, or another try scheduled.
    }
  }

  /** Local state first (a revoke's 200 proves nothing), then revoke both tokens through the proxy. */
  async signOut(): Promise<void> {
    const { access, refreshToken } = await this.deps.withLock(refreshLockName, async () => {
      const contents = await this.deps.vault.read();
      await this.#forget();
      return contents;
    });
    for (const token of [refreshToken, access?.accessToken]) {
      if (!token) continue;
      try {
        await this.deps.proxy.revoke(token);
      } catch {
        // Local state is already gone; the platform expires what could not be revoked.
      }
    }
  }

  async #forget(): Promise<void> {
    await this.deps.vault.wipe();
    await this.deps.alarms.clear(refreshAlarmName);
    await this.deps.onEnded?.();
  }
}
