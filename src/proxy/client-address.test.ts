import { describe, expect, it } from 'vitest';
import { addressFromHeader } from './client-address.ts';

describe('addressFromHeader', () => {
  it('takes the address the one trusted hop appended to X-Forwarded-For, whatever the client wrote before it', () => {
    expect(addressFromHeader('203.0.113.1', 'X-Forwarded-For', 1)).toBe('203.0.113.1');
    expect(addressFromHeader('198.51.100.7, 203.0.113.1', 'X-Forwarded-For', 1)).toBe('203.0.113.1');
    expect(addressFromHeader('a,b, c ,203.0.113.1', 'x-forwarded-for', 1)).toBe('203.0.113.1');
  });

  it('counts that many places from the right behind several trusted hops', () => {
    expect(addressFromHeader('spoofed, 203.0.113.1, 192.0.2.10', 'X-Forwarded-For', 2)).toBe('203.0.113.1');
    expect(addressFromHeader('spoofed, 203.0.113.1, 192.0.2.10, 192.0.2.20', 'X-Forwarded-For', 3)).toBe(
      '203.0.113.1',
    );
  });

  it('takes the leftmost address when the list is shorter than the hops (every entry came from a trusted hop)', () => {
    expect(addressFromHeader('203.0.113.1', 'X-Forwarded-For', 2)).toBe('203.0.113.1');
  });

  it('ignores empty entries and answers nothing for an empty header', () => {
    expect(addressFromHeader('198.51.100.7, 203.0.113.1, ', 'X-Forwarded-For', 1)).toBe('203.0.113.1');
    expect(addressFromHeader(' , ', 'X-Forwarded-For', 1)).toBeUndefined();
    expect(addressFromHeader('', 'X-Forwarded-For', 1)).toBeUndefined();
    expect(addressFromHeader(undefined, 'X-Forwarded-For', 1)).toBeUndefined();
  });

  it('reads a single-value header (CF-Connecting-IP, X-Real-IP) as it is, whatever the hops', () => {
    expect(addressFromHeader('203.0.113.1', 'CF-Connecting-IP', 1)).toBe('203.0.113.1');
    expect(addressFromHeader(' 2001:db8::1 ', 'X-Real-IP', 3)).toBe('2001:db8::1');
    expect(addressFromHeader('', 'CF-Connecting-IP', 1)).toBeUndefined();
  });
});
