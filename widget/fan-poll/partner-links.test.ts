import { afterEach, describe, expect, it, vi } from 'vitest';
import { partnerLink, safeLinkUrl } from './partner-links.ts';

function card(attributes: Record<string, string>): Element {
  const element = document.createElement('div');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('partner links', () => {
  it('takes https anywhere and http on loopback only, never javascript:, data: or credentials', () => {
    expect(safeLinkUrl('https://www.club.example/report')?.href).toBe('https://www.club.example/report');
    expect(safeLinkUrl('http://127.0.0.1:8080/next')?.href).toBe('http://127.0.0.1:8080/next');
    for (const refused of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'http://www.club.example/',
      'https://user:pass@www.club.example/',
      '/relative',
      'ftp://club.example/',
    ])
      expect(safeLinkUrl(refused), refused).toBeUndefined();
  });

  it('carries the tracking parameters on next-href', () => {
    const element = card({ 'next-href': 'https://www.club.example/report?match=12' });
    const href = partnerLink(element, 'next-href', {
      tracking: { referrer: 'club-site', campaign: 'spring' },
    });
    const url = new URL(href!);
    expect(url.searchParams.get('match')).toBe('12');
    expect(url.searchParams.get('referrer')).toBe('club-site');
    expect(url.searchParams.get('campaign')).toBe('spring');
  });

  it('fills verify-href with the address, URL-encoded', () => {
    const element = card({ 'verify-href': 'https://explorer.example/address/{address}?tab=votes' });
    expect(partnerLink(element, 'verify-href', { tracking: {}, address: '0xAB/../?x=1#y' })).toBe(
      'https://explorer.example/address/0xAB%2F..%2F%3Fx%3D1%23y?tab=votes',
    );
    expect(partnerLink(element, 'verify-href', { tracking: {} })).toBeUndefined();
  });

  it('drops anything else with one console warning per value', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const element = card({
      'next-href': 'javascript:alert(document.cookie)',
      'get-tokens-href': 'data:text/html,hi',
      'verify-href': 'https://explorer.example/',
    });
    for (let render = 0; render < 3; render += 1) {
      expect(partnerLink(element, 'next-href', { tracking: {} })).toBeUndefined();
      expect(partnerLink(element, 'get-tokens-href', { tracking: {} })).toBeUndefined();
      expect(partnerLink(element, 'verify-href', { tracking: {}, address: '0x1' })).toBeUndefined();
    }
    expect(warn).toHaveBeenCalledTimes(3);
    expect(String(warn.mock.calls[0]?.[0])).toContain('next-href is ignored');
    expect(String(warn.mock.calls[2]?.[0])).toContain('{address}');
  });
});
