import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApplicationRegistry, RegisteredApplication } from '../applications.ts';

/** How a token or revoke request authenticated its client, or why it did not. */
export type ClientAuthentication =
  | { readonly ok: true; readonly application: RegisteredApplication; readonly method: 'basic' | 'post' }
  | { readonly ok: false; readonly failure: 'none' | 'both' | 'wrong-secret' }
  | { readonly ok: false; readonly failure: 'unknown-client'; readonly clientId: string };

interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * Authenticates the client of a token or revoke request: the Basic header or the `client_id` + `client_secret`
 * form fields, never both (RFC 6749 §2.3). The Basic header may carry `base64(id:secret)` raw, as the platform's
 * documentation builds it, or form-urlencoded first, as RFC 6749 §2.3.1 and oauth4webapi do; the raw reading is
 * tried first so that a secret containing `%` or `+` still works.
 */
export function authenticateClient(
  registry: ApplicationRegistry,
  authorizationHeader: string | undefined,
  form: ReadonlyMap<string, string>,
): ClientAuthentication {
  const basic = parseBasicScheme(authorizationHeader);
  const formSecret = form.get('client_secret');
  const formClientId = form.get('client_id');
  if (basic !== undefined && formSecret !== undefined) return { ok: false, failure: 'both' };

  if (basic !== undefined) {
    const readings = basicReadings(basic);
    if (readings.length === 0) return { ok: false, failure: 'wrong-secret' };
    const results = readings.map((credentials) => check(registry, credentials));
    const authenticated = results.find((result) => result.ok);
    if (authenticated) {
      // A body client_id beside the header must name the same client.
      if (formClientId !== undefined && formClientId !== authenticated.application.clientId) {
        return { ok: false, failure: 'wrong-secret' };
      }
      return { ...authenticated, method: 'basic' };
    }
    // Report in terms of the most decoded reading (what the client meant).
    const meant = results[results.length - 1];
    return meant && !meant.ok ? meant : { ok: false, failure: 'wrong-secret' };
  }

  if (formClientId !== undefined && formSecret !== undefined) {
    const result = check(registry, { clientId: formClientId, clientSecret: formSecret });
    return result.ok ? { ...result, method: 'post' } : result;
  }
  return { ok: false, failure: 'none' };
}

/** The base64 credentials of a `Basic` Authorization header, or undefined for no header or another scheme. */
function parseBasicScheme(header: string | undefined): string | undefined {
  const match = /^basic\s+(\S*)\s*$/i.exec(header?.trim() ?? '');
  return match ? (match[1] ?? '') : undefined;
}

/** Every plausible reading of Basic credentials: raw first, then RFC 6749 form-decoded when that differs. */
function basicReadings(encoded: string): Credentials[] {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return [];
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return [];
  const raw = { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) };
  const readings: Credentials[] = [raw];
  const clientId = formDecode(raw.clientId);
  const clientSecret = formDecode(raw.clientSecret);
  if (
    clientId !== undefined &&
    clientSecret !== undefined &&
    (clientId !== raw.clientId || clientSecret !== raw.clientSecret)
  ) {
    readings.push({ clientId, clientSecret });
  }
  return readings;
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

function check(
  registry: ApplicationRegistry,
  credentials: Credentials,
):
  | { readonly ok: true; readonly application: RegisteredApplication }
  | Exclude<ClientAuthentication, { ok: true }> {
  const application = registry.find(credentials.clientId);
  if (!application) return { ok: false, failure: 'unknown-client', clientId: credentials.clientId };
  if (!sameSecret(application.clientSecret, credentials.clientSecret))
    return { ok: false, failure: 'wrong-secret' };
  return { ok: true, application };
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(expected: string, actual: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(actual));
}
