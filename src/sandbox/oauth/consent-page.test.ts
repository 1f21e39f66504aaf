import { describe, expect, it } from 'vitest';
import { pageHeaders, renderConsentPage } from './consent-page.ts';

const view = {
  applicationName: 'App',
  redirectHost: '127.0.0.1:4020',
  authorizationId: 'id-1',
  nonce: 'nonce-1',
  styleNonce: 'style-1',
  demoFans: [{ username: 'alex', displayName: 'Alex' }],
  demoPassword: 'fan-polls',
};

describe('renderConsentPage', () => {
  it('escapes every echoed string, including attribute values', async () => {
    const html = String(
      await renderConsentPage({
        ...view,
        applicationName: '<b>App</b>',
        username: '"><script>x</script>',
        errorMessage: '<i>no</i>',
        demoFans: [{ username: '<u>', displayName: '&amp' }],
      }),
    );
    expect(html).not.toMatch(/<b>|<script>|<i>|<u>/);
    expect(html).toContain('&lt;b&gt;App&lt;/b&gt;');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(html).toContain('&amp;amp');
  });

  it('keeps the stylesheet intact (not escaped) and shows the alert only on a retry', async () => {
    const first = String(await renderConsentPage(view));
    expect(first).toContain('"Segoe UI"');
    expect(first).not.toContain('role="alert"');
    const retry = String(await renderConsentPage({ ...view, errorMessage: 'Wrong', username: 'alex' }));
    expect(retry).toContain('role="alert"');
    expect(retry).toContain('aria-describedby="sign-in-error"');
  });
});

describe('pageHeaders', () => {
  it('lets the form post only here and to the redirect origin (a custom scheme by its scheme)', () => {
    expect(pageHeaders('n', 'https://abc.chromiumapp.org/')['Content-Security-Policy']).toContain(
      "form-action 'self' https://abc.chromiumapp.org;",
    );
    expect(pageHeaders('n', 'com.example.app:/callback')['Content-Security-Policy']).toContain(
      "form-action 'self' com.example.app:;",
    );
    expect(pageHeaders('n')['Content-Security-Policy']).toContain("form-action 'self';");
  });
});
