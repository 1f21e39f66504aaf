import { describe, expect, it } from 'vitest';
import { jsonForScriptBlock, renderCallbackPage } from './callback-page.ts';

describe('renderCallbackPage', () => {
  it('cannot be broken out of by a message, and shows it as text', () => {
    const page = renderCallbackPage(
      { type: 'fan-polls:sign-in', ok: false, error: 'x', message: '</script><img src=x onerror=alert(1)>' },
      'https://club.example',
    );
    expect(page.html).not.toContain('<img');
    expect(page.html).toContain('&lt;/script&gt;&lt;img');
    const block = /<script type="application\/json" id="sign-in-result">([^<]*)<\/script>/.exec(
      page.html,
    )?.[1];
    expect(JSON.parse(block!)).toMatchObject({ openerOrigin: 'https://club.example' });
  });

  it('uses a fresh nonce each time, in the CSP and on its one script', () => {
    const first = renderCallbackPage({ type: 'fan-polls:sign-in', ok: true, userId: 'u' }, undefined);
    const second = renderCallbackPage({ type: 'fan-polls:sign-in', ok: true, userId: 'u' }, undefined);
    const nonceOf = (csp: string | undefined) => /script-src 'nonce-([^']+)'/.exec(csp ?? '')?.[1];
    const nonce = nonceOf(first.headers['Content-Security-Policy']);
    expect(nonce).toBeDefined();
    expect(nonce).not.toBe(nonceOf(second.headers['Content-Security-Policy']));
    expect(first.html).toContain(`<script nonce="${nonce}">`);
    expect(first.html.match(/<script nonce=/g)?.length).toBe(1);
  });

  it('carries the handoff code in the posted result only, never in the visible text', () => {
    const page = renderCallbackPage(
      { type: 'fan-polls:sign-in', ok: true, userId: 'u', handoff: 'HANDOFF-code_123' },
      'https://club.example',
    );
    expect(page.html.split('HANDOFF-code_123').length).toBe(2);
    const block = /<script type="application\/json" id="sign-in-result">([^<]*)<\/script>/.exec(
      page.html,
    )?.[1];
    expect(JSON.parse(block!)).toEqual({
      result: { type: 'fan-polls:sign-in', ok: true, userId: 'u', handoff: 'HANDOFF-code_123' },
      openerOrigin: 'https://club.example',
    });
  });

  it('escapes the JS line separators and ampersands in the data block', () => {
    expect(jsonForScriptBlock({ a: '\u2028&' })).toBe('{"a":"\\u2028\\u0026"}');
  });
});
