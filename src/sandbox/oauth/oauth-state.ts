import { randomBytes, randomUUID } from 'node:crypto';
import type { SandboxState } from '../sandbox-state.ts';
import { oauthChoices } from './oauth-choices.ts';
import type { PkceMethod } from './pkce.ts';

/** The tracking parameters an authorize request may carry, exactly these five (partner-api.md). */
export const trackingParameterNames = ['referrer', 'campaign', 'param1', 'param2', 'param3'] as const;

/** The tracking parameters sent (an empty `campaign` is kept as the empty string; absent ones are left out). */
export type TrackingParameters = Partial<Record<(typeof trackingParameterNames)[number], string>>;

/** One `GET /oauth2/authorize` that passed validation, as tests and partners can inspect it afterwards. */
export interface AuthorizationRecord {
  readonly id: string;
  readonly clientId: string;
  readonly partnerTag: string;
  readonly redirectUri: string;
  readonly tracking: TrackingParameters;
  /** Sandbox clock time of the request, in ms since the epoch. */
  readonly requestedAt: number;
  readonly outcome: 'pending' | 'allowed' | 'denied';
  /** The fan who allowed it. */
  readonly userId?: string;
}

/** An authorization waiting for the fan on the login and consent page. */
export interface PendingAuthorization {
  readonly id: string;
  /** Anti-forgery value: in the form and in a SameSite=Strict cookie; both must come back. */
  readonly nonce: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string | undefined;
  readonly codeChallenge: string | undefined;
  readonly codeChallengeMethod: PkceMethod | undefined;
  readonly createdAt: number;
}

/** An authorization code, kept after use so that a second use is recognised (and revokes what it issued). */
export interface IssuedCode {
  readonly code: string;
  /** Links the tokens issued from this code in the TokenStore. */
  readonly codeId: string;
  readonly clientId: string;
  readonly userId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string | undefined;
  readonly codeChallengeMethod: PkceMethod | undefined;
  readonly issuedAt: number;
  used: boolean;
}

type MutableRecord = { -readonly [K in keyof AuthorizationRecord]: AuthorizationRecord[K] };

/** The OAuth server's own state beside the shared SandboxState: pending authorizations, codes, records. */
export class OAuthServerState {
  readonly #pending = new Map<string, PendingAuthorization>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #records: MutableRecord[] = [];

  constructor(private readonly sandbox: SandboxState) {}

  startAuthorization(
    request: Omit<PendingAuthorization, 'id' | 'nonce' | 'createdAt'> & {
      readonly partnerTag: string;
      readonly tracking: TrackingParameters;
    },
  ): PendingAuthorization {
    const now = this.sandbox.clock.now();
    this.#dropStalePending(now);
    const pending: PendingAuthorization = {
      id: randomUUID(),
      nonce: randomBytes(24).toString('base64url'),
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      state: request.state,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      createdAt: now,
    };
    this.#pending.set(pending.id, pending);
    this.#records.push({
      id: pending.id,
      clientId: request.clientId,
      partnerTag: request.partnerTag,
      redirectUri: request.redirectUri,
      tracking: request.tracking,
      requestedAt: now,
      outcome: 'pending',
    });
    return pending;
  }

  /** The pending authorization with this id, if it has not expired or been decided. */
  findPending(id: string): PendingAuthorization | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    if (this.sandbox.clock.now() >= pending.createdAt + oauthChoices.pendingAuthorizationSeconds * 1000) {
      this.#pending.delete(id);
      return undefined;
    }
    return pending;
  }

  deny(pending: PendingAuthorization): void {
    this.#pending.delete(pending.id);
    this.#setOutcome(pending.id, { outcome: 'denied' });
  }

  /** The fan allowed: the pending authorization becomes a single-use code. */
  allow(pending: PendingAuthorization, userId: string): IssuedCode {
    this.#pending.delete(pending.id);
    this.#setOutcome(pending.id, { outcome: 'allowed', userId });
    const issued: IssuedCode = {
      code: randomUUID(),
      codeId: randomUUID(),
      clientId: pending.clientId,
      userId,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      codeChallengeMethod: pending.codeChallengeMethod,
      issuedAt: this.sandbox.clock.now(),
      used: false,
    };
    this.#codes.set(issued.code, issued);
    return issued;
  }

  findCode(code: string): IssuedCode | undefined {
    return this.#codes.get(code);
  }

  get records(): readonly AuthorizationRecord[] {
    return this.#records.map((record) => ({ ...record, tracking: { ...record.tracking } }));
  }

  #setOutcome(id: string, change: Pick<MutableRecord, 'outcome'> & { userId?: string }): void {
    const record = this.#records.find((candidate) => candidate.id === id);
    if (record) Object.assign(record, change);
  }

  #dropStalePending(now: number): void {
    for (const [id, pending] of this.#pending) {
      if (now >= pending.createdAt + oauthChoices.pendingAuthorizationSeconds * 1000)
        this.#pending.delete(id);
    }
  }
}

const serverStates = new WeakMap<SandboxState, OAuthServerState>();

/** The OAuth server state of a sandbox, created on first use (both listeners of one sandbox share it). */
export function oauthStateOf(sandbox: SandboxState): OAuthServerState {
  let state = serverStates.get(sandbox);
  if (!state) {
    state = new OAuthServerState(sandbox);
    serverStates.set(sandbox, state);
  }
  return state;
}

/** Every authorization the sandbox has seen, oldest first, with its tracking parameters and outcome. */
export function recordedAuthorizations(sandbox: SandboxState): readonly AuthorizationRecord[] {
  return oauthStateOf(sandbox).records;
}
