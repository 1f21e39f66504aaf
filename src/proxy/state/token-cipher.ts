import { decodeBase64Url, encodeBase64Url } from 'hono/utils/encode';

/**
 * Encryption at rest for what the proxy keeps in Redis (tokens, PKCE verifiers): AES-256-GCM with a random 96-bit
 * IV per write, and the record's key as associated data, so a value copied to another key does not decrypt. Web
 * Crypto only. A Redis dump without the key gives nothing usable (as oauth2-proxy's encrypted session store).
 */
export interface TokenCipher {
  seal(plain: string, recordKey: string): Promise<string>;
  /** Undefined when the value does not decrypt with this key (another key, another record, tampered). */
  open(sealed: string, recordKey: string): Promise<string | undefined>;
}

/** `keyBytes`: 32 bytes, or a promise of them (imported once, on first use). */
export function createTokenCipher(keyBytes: Uint8Array | Promise<Uint8Array>): TokenCipher {
  let imported: Promise<CryptoKey> | undefined;
  const keyOf = () =>
    (imported ??= Promise.resolve(keyBytes).then((bytes) => {
      if (bytes.length !== 32) throw new Error('The token encryption key must be 32 bytes.');
      return crypto.subtle.importKey('raw', bytes as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [
        'encrypt',
        'decrypt',
      ]);
    }));
  const encoder = new TextEncoder();
  return {
    async seal(plain, recordKey) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt(
          { name: 'AES-GCM', iv, additionalData: encoder.encode(recordKey) },
          await keyOf(),
          encoder.encode(plain),
        ),
      );
      const out = new Uint8Array(iv.length + sealed.length);
      out.set(iv);
      out.set(sealed, iv.length);
      return toBase64(out.buffer);
    },
    async open(sealed, recordKey) {
      try {
        const bytes = decodeBase64Url(sealed);
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(recordKey) },
          await keyOf(),
          bytes.subarray(12),
        );
        return new TextDecoder().decode(plain);
      } catch {
        return undefined;
      }
    },
  };
}

/** A 32-byte key from a secret of any length (the sandbox's default, when no key is configured). */
export async function keyFromSecret(secret: string): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`fan-polls token key:${secret}`)),
  );
}

/** SHA-256 of a bearer value (a handoff code), base64url: what Redis keys it by, so a dump holds no usable code. */
export async function digestOf(value: string): Promise<string> {
  return toBase64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
}

/** Unpadded base64url, as every value written before used. */
function toBase64(bytes: ArrayBuffer): string {
  return encodeBase64Url(bytes).replace(/=+$/, '');
}
