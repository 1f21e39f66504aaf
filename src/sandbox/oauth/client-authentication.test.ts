import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApplicationRegistry, type RegisteredApplication } from '../applications.ts';
import { authenticateClient } from './client-authentication.ts';

function application(clientId: string, clientSecret: string): RegisteredApplication {
  return { clientId, clientSecret, partnerTag: 'tag', name: 'App', redirectUris: [], subscribed: true };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** RFC 6749 §2.3.1 / oauth4webapi: application/x-www-form-urlencoded, then base64. */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
const noForm = new Map<string, string>();

describe('authenticateClient', () => {
  it('accepts any id and secret in both Basic encodings (raw, then form-urlencoded)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((id) => !id.includes(':')),
        fc.string(),
        (clientId, clientSecret) => {
          const registry = new ApplicationRegistry([application(clientId, clientSecret)]);
          for (const header of [
            basic(clientId, clientSecret),
            basic(formEncode(clientId), formEncode(clientSecret)),
          ]) {
            const result = authenticateClient(registry, header, noForm);
            expect(result).toMatchObject({ ok: true, method: 'basic' });
          }
        },
      ),
    );
  });

  it('never accepts a different secret, whichever way it is encoded', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (secret, other) => {
        fc.pre(secret !== other && formDecodes(other) !== secret);
        const registry = new ApplicationRegistry([application('app', secret)]);
        expect(authenticateClient(registry, basic('app', other), noForm).ok).toBe(false);
      }),
    );
  });

  it('tells an unknown client from a wrong secret, and form fields from no authentication', () => {
    const registry = new ApplicationRegistry([application('app', 's3cret')]);
    expect(authenticateClient(registry, basic('nope', 'x'), noForm)).toEqual({
      ok: false,
      failure: 'unknown-client',
      clientId: 'nope',
    });
    expect(authenticateClient(registry, basic('app', 'x'), noForm)).toEqual({
      ok: false,
      failure: 'wrong-secret',
    });
    expect(
      authenticateClient(
        registry,
        undefined,
        new Map([
          ['client_id', 'app'],
          ['client_secret', 's3cret'],
        ]),
      ),
    ).toMatchObject({ ok: true, method: 'post' });
    expect(authenticateClient(registry, undefined, new Map([['client_id', 'app']]))).toEqual({
      ok: false,
      failure: 'none',
    });
    expect(authenticateClient(registry, 'Bearer x', noForm)).toEqual({ ok: false, failure: 'none' });
  });

  it('refuses the header and a form secret together', () => {
    const registry = new ApplicationRegistry([application('app', 's3cret')]);
    const form = new Map([['client_secret', 's3cret']]);
    expect(authenticateClient(registry, basic('app', 's3cret'), form)).toEqual({
      ok: false,
      failure: 'both',
    });
  });
});

function formDecodes(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
