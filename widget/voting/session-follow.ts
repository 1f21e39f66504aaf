import type { FanSession } from '../session/page-session.ts';
import { unknownFan, type FanState } from './fan-action.ts';

/**
 * What a card knows of the fan once the page's session says `next` (it calls the card when it subscribes and at each
 * change; part of the details chunk, as the session is): undefined while the session is not known yet.
 */
export function followSession(
  fan: FanState,
  knownUser: string | undefined,
  next: FanSession,
): { fan: FanState; user: string | undefined } | undefined {
  if (next.state === 'unknown') return undefined;
  const user = next.state === 'signed-in' ? next.userId : undefined;
  // The first fan the session names may be the one this card just signed in (a sign-in can end before the
  // session's first read): what the card knows of them stays. Another fan, or none: it goes.
  const sameFan = user !== undefined && (knownUser === undefined || user === knownUser);
  // How the card signs in stays whoever the fan is.
  const how = fan.redirectSignIn === undefined ? {} : { redirectSignIn: fan.redirectSignIn };
  return {
    user,
    fan: sameFan ? { ...fan, session: next.state } : { ...unknownFan, ...how, session: next.state },
  };
}
