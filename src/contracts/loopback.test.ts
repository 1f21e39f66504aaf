import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl } from './loopback.ts';

describe('loopback', () => {
  it('is localhost, 127.0.0.0/8 and ::1', () => {
    for (const url of [
      'http://localhost:8787',
      'http://127.0.0.1',
      'http://127.12.0.9:4010/x',
      'http://127.1',
      'http://[::1]',
      'http://[::1]:8080/a.png',
      'http://[0:0:0:0:0:0:0:1]/',
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
  });

  it('is nothing else', () => {
    for (const url of [
      'https://polls.club.example',
      'http://128.0.0.1',
      'http://localhost.evil.example',
      'http://127.0.0.1.evil.example',
      'http://[::2]',
      'not a url',
      '',
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
    expect(isLoopbackHost('::1')).toBe(false);
  });
});
