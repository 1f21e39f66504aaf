import { describe, expect, it } from 'vitest';
import { checkPageOrigin } from './origin-check.ts';

const allowed = ['https://www.club.example'];

describe('checkPageOrigin', () => {
  it('finds a page’s origin on the proxy’s list, whatever its path', () => {
    expect(checkPageOrigin('https://www.club.example/match/42?x=1', allowed, true)).toEqual({
      kind: 'allowed',
      origin: 'https://www.club.example',
    });
  });

  it('says exactly what to add for another origin (a port or a subdomain is another origin)', () => {
    expect(checkPageOrigin('club.example', allowed, true)).toEqual({
      kind: 'missing',
      origin: 'https://club.example',
      setting: 'FAN_POLLS_ALLOWED_ORIGINS=https://www.club.example,https://club.example',
      needsHttps: false,
    });
    expect(checkPageOrigin('https://www.club.example:8443/', allowed, true)).toMatchObject({
      kind: 'missing',
    });
  });

  it('warns that production takes https pages only', () => {
    expect(checkPageOrigin('http://www.club.example', allowed, true)).toMatchObject({
      kind: 'missing',
      needsHttps: true,
    });
    expect(checkPageOrigin('http://localhost:8080', allowed, false)).toMatchObject({ needsHttps: false });
  });

  it('refuses what is not a web page’s address', () => {
    expect(checkPageOrigin('  ', allowed, true)).toEqual({ kind: 'empty' });
    expect(checkPageOrigin('ftp://files.example', allowed, true)).toMatchObject({ kind: 'invalid' });
    expect(checkPageOrigin('https://exa mple', allowed, true)).toMatchObject({ kind: 'invalid' });
  });
});

describe('checkPageOrigin on a sandbox proxy that allows local pages', () => {
  it('finds any loopback http page allowed, and only those', () => {
    expect(checkPageOrigin('http://localhost:5173/match', allowed, false, true)).toEqual({
      kind: 'allowed',
      origin: 'http://localhost:5173',
    });
    expect(checkPageOrigin('http://localhost:5173/match', allowed, false, false)).toMatchObject({
      kind: 'missing',
    });
    expect(checkPageOrigin('https://www.other.example', allowed, false, true)).toMatchObject({
      kind: 'missing',
    });
  });
});
