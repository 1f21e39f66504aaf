import { PlatformClient } from '../../src/platform/client.ts';
import { PlatformError } from '../../src/platform/errors.ts';
import { voteRefusalMessages, voteRefusalReason } from '../../src/platform/vote-refusal.ts';
import { ExtensionError } from '../shared/extension-error.ts';
import type { ExtensionSettings } from '../shared/settings.ts';
import type { FanSession } from './fan-session.ts';
import type { FetchLike } from '../../src/platform/http.ts';
import { isLoopbackUrl } from '../../src/contracts/loopback.ts';

/** The platform client with the fan's token: a refused token gets one refresh and one retry (never for a vote). */
export function fanPlatformClient(
  settings: ExtensionSettings,
  session: FanSession,
  fetch: FetchLike,
): PlatformClient {
  return new PlatformClient({
    apiUrl: settings.platformApiUrl,
    // Plain http only for loopback (the sandbox); `normaliseServiceUrl` already refused it elsewhere.
    allowInsecureRequests:
      settings.platformApiUrl.startsWith('http:') && isLoopbackUrl(settings.platformApiUrl),
    fetch,
    tokens: {
      user: {
        token: () => session.accessToken(),
        invalidate: async (refusedToken) => {
          try {
            await session.refresh(refusedToken);
            return true;
          } catch {
            return false;
          }
        },
      },
    },
  });
}

/** Runs a call with the fan's platform client; every failure comes out as the extension reports it. */
export async function withFanPlatform<Client, T>(
  client: () => Promise<Client>,
  call: (client: Client) => Promise<T>,
): Promise<T> {
  try {
    return await call(await client());
  } catch (error) {
    throw extensionErrorFrom(error);
  }
}

/** Platform failures as the extension reports them (codes a card understands; no platform body is passed on). */
export function extensionErrorFrom(error: unknown): ExtensionError {
  if (error instanceof ExtensionError) return error;
  if (!(error instanceof PlatformError)) {
    return new ExtensionError('unavailable', 'The platform could not be reached.', { cause: error });
  }
  switch (error.code) {
    case 'invalid_token':
    case 'missing_credentials':
      return new ExtensionError('signed_out', 'The session is no longer valid; sign in again.', {
        cause: error,
      });
    case 'vote_refused': {
      const reason = voteRefusalReason(error);
      return new ExtensionError('refused', voteRefusalMessages[reason ?? 'unknown'], {
        cause: error,
        ...(reason === undefined ? {} : { reason }),
      });
    }
    case 'not_found':
    case 'invalid_input':
    case 'bad_request':
      return new ExtensionError('refused', 'The platform refused the request.', { cause: error });
    default:
      return new ExtensionError('unavailable', 'The platform is not available right now; try again.', {
        cause: error,
      });
  }
}
