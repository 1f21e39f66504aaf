import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { verifyPkce } from './pkce.ts';

describe('verifyPkce', () => {
  it('accepts the S256 challenge a client library computes (oauth4webapi, independently)', async () => {
    for (let i = 0; i < 20; i += 1) {
      const verifier = oauth.generateRandomCodeVerifier();
      expect(verifyPkce(await oauth.calculatePKCECodeChallenge(verifier), 'S256', verifier)).toBe(true);
    }
  });

  it('refuses another verifier, a malformed one, and an S256 challenge checked as plain', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    expect(verifyPkce(challenge, 'S256', oauth.generateRandomCodeVerifier())).toBe(false);
    expect(verifyPkce(challenge, 'S256', 'short')).toBe(false);
    expect(verifyPkce(challenge, 'plain', verifier)).toBe(false);
    expect(verifyPkce(verifier, 'plain', verifier)).toBe(true);
  });
});
