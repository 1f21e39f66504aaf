// The PlatformError a call fails with, for tests that assert its code (anything else it throws is rethrown).
import { PlatformError } from '../../src/platform/errors.ts';

export async function platformErrorOf(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error('expected a PlatformError');
}
