import type { AccessGrant } from './token-vault.ts';

/**
 * When to refresh: a margin before expiry that scales with the lifetime (a fifth of it), at least 5 s and at most
 * 2 min, and never more than half the lifetime. Lifetimes are never assumed: they come from `expires_in`.
 */
export function refreshMarginMs(lifetimeMs: number): number {
  const margin = Math.min(120_000, Math.max(5_000, lifetimeMs / 5));
  return Math.min(margin, lifetimeMs / 2);
}

/** Epoch ms at which this grant should be refreshed; undefined when its expiry is unknown. */
export function refreshDueAt(grant: AccessGrant): number | undefined {
  if (grant.expiresAt === undefined) return undefined;
  return grant.expiresAt - refreshMarginMs(grant.expiresAt - grant.issuedAt);
}

export function isRefreshDue(grant: AccessGrant, now: number): boolean {
  const dueAt = refreshDueAt(grant);
  return dueAt !== undefined && now >= dueAt;
}

export function isExpired(grant: AccessGrant, now: number): boolean {
  return grant.expiresAt !== undefined && now >= grant.expiresAt;
}

/** After a failed refresh that is worth retrying: try again in 30 s (the shortest alarm of a packed build). */
export const refreshRetryDelayMs = 30_000;
