import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platform/errors.ts';
import { ExtensionError, serializeError } from '../shared/extension-error.ts';
import { extensionErrorFrom } from './platform-access.ts';

const refusedWith = (status: number) =>
  extensionErrorFrom(new PlatformError('vote_refused', 'vote: refused', { status }));

describe('extensionErrorFrom', () => {
  it('gives a refused vote its reason and a message for the fan, and both cross the message boundary', () => {
    const error = refusedWith(403);
    expect(error).toBeInstanceOf(ExtensionError);
    expect(error.code).toBe('refused');
    expect(error.reason).toBe('not_holder');
    expect(serializeError(error)).toEqual({
      code: 'refused',
      reason: 'not_holder',
      message: 'Only holders of this club’s fan tokens can vote in this poll.',
    });
    expect(refusedWith(409).reason).toBe('already_voted');
    // A 422 with nothing else may mean several things: no guess (the status only where it means one).
    expect(refusedWith(422).reason).toBeUndefined();
  });

  it('gives no reason for an unmapped refusal or another failure, and serializes none', () => {
    expect(serializeError(refusedWith(418))).toEqual({
      code: 'refused',
      message: 'The platform refused this vote.',
    });
    const notFound = extensionErrorFrom(new PlatformError('not_found', 'n', { status: 404 }));
    expect(notFound.code).toBe('refused');
    expect(notFound.reason).toBeUndefined();
    expect(Object.keys(serializeError(notFound))).toEqual(['code', 'message']);
    expect(extensionErrorFrom(new PlatformError('invalid_token', 'i')).code).toBe('signed_out');
  });
});
