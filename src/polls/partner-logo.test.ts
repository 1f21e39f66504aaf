import { describe, expect, it } from 'vitest';
import { choosePartnerLogo } from './partner-logo.ts';
import { safeImageUrl } from './safe-image-url.ts';

describe('safeImageUrl', () => {
  it('allows https anywhere and http on loopback only', () => {
    expect(safeImageUrl('https://cdn.example/logo.png?version=1')).toBe(
      'https://cdn.example/logo.png?version=1',
    );
    expect(safeImageUrl('http://127.0.0.1:4010/assets/clubs/riverside.svg')).toBe(
      'http://127.0.0.1:4010/assets/clubs/riverside.svg',
    );
    expect(safeImageUrl('http://localhost/a.png')).toBe('http://localhost/a.png');
    expect(safeImageUrl('http://[::1]:8080/a.png')).toBe('http://[::1]:8080/a.png');
  });

  it('drops every other scheme, http elsewhere, credentials and junk', () => {
    for (const url of [
      'http://cdn.example/logo.png',
      'http://127.0.0.1.evil.example/a.png',
      'javascript:alert(1)',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'https://user:pass@cdn.example/a.png',
      '//cdn.example/a.png',
      'not a url',
      '',
    ]) {
      expect(safeImageUrl(url), url).toBeUndefined();
    }
  });
});

describe('choosePartnerLogo', () => {
  it('prefers a known image type, then the desktop format, then the wider image', () => {
    expect(
      choosePartnerLogo([
        { url: 'https://cdn.example/m.png', type: 'png', format: 'mobile', width: '900' },
        { url: 'https://cdn.example/d-small.png', type: 'png', format: 'desktop', width: '128' },
        { url: 'https://cdn.example/d-large.png', type: 'png', format: 'desktop', width: '512' },
        { url: 'https://cdn.example/odd.bin', type: 'binary', format: 'desktop', width: '2048' },
      ]),
    ).toBe('https://cdn.example/d-large.png');
  });

  it('skips unsafe entries and gives undefined when none is safe', () => {
    expect(
      choosePartnerLogo([
        { url: 'javascript:alert(1)', type: 'png', format: 'desktop', width: '512' },
        { url: 'https://cdn.example/ok.png', type: 'png', format: 'mobile' },
      ]),
    ).toBe('https://cdn.example/ok.png');
    expect(choosePartnerLogo([{ url: 'http://cdn.example/a.png' }])).toBeUndefined();
    expect(choosePartnerLogo([])).toBeUndefined();
  });
});
