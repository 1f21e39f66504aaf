import { PlatformError } from '../platform/errors.ts';
import type { TokenSet } from '../platform/oauth.ts';
import type { ProxyLogger } from './logger.ts';
import type { ProxyRuntime } from './runtime.ts';
import type { Session, SessionStore } from './state/session-store.ts';

export interface EndSessionDeps {
  readonly sessions: Pick<SessionStore, 'end'>;
  readonly revoke: (token: string) => Promise<void>;
  readonly logger: ProxyLogger;
}

/** The runtime's sessions and logger, and the platform's revoke. */
export function endSessionDepsOf(
  runtime: Pick<ProxyRuntime, 'sessions' | 'logger' | 'platform'>,
): EndSessionDeps {
  return {
    sessions: runtime.sessions,
    logger: runtime.logger,
    revoke: (token) => runtime.platform.oauth.revoke(token),
  };
}

/**
 * Ends a signed-in session (sign-out, or another sign-in over it): its tokens are forgotten first (here and in the
 * shared store), since the platform's revoke answers 200 whatever happened and so proves nothing, then both are
 * revoked upstream. The session's handoff copies end with it. `keep` is a pair that must survive (the new
 * sign-in's): should the platform have handed the same tokens out again, revoking either would end it too.
 */
export async function endSession(deps: EndSessionDeps, session: Session, keep?: TokenSet): Promise<void> {
  const tokens = session.tokens.tokens;
  await deps.sessions.end(session);
  const pair = [tokens?.refreshToken, tokens?.accessToken].filter((token) => token !== undefined);
  if (keep !== undefined && pair.some((token) => token === keep.accessToken || token === keep.refreshToken)) {
    deps.logger.log('warn', 'revoke_skipped', { reason: 'reissued_tokens' });
    return;
  }
  for (const token of pair) {
    try {
      await deps.revoke(token);
    } catch (error) {
      deps.logger.log('warn', 'revoke_failed', {
        platformError: error instanceof PlatformError ? error.code : 'unknown',
      });
    }
  }
}
