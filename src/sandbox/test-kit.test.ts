import { describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox.ts';
import { inProcessFetch } from './test-kit.ts';

const apiOrigin = 'http://127.0.0.1:1';
const authOrigin = 'http://127.0.0.1:2';

describe('inProcessFetch', () => {
  it('sends the API origin to the resource API and any other to the OAuth server', async () => {
    const fetch = inProcessFetch(createSandbox({ simulatedVotesPerMinute: 0 }), apiOrigin);
    // Without a token the resource API answers the gateway's 401; the OAuth server has no such path.
    const api = await fetch(`${apiOrigin}/polls/1.0.8/polls`);
    expect(api.status).toBe(401);
    const token = await fetch(`${authOrigin}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(401);
    expect(token.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await fetch(`${authOrigin}/polls/1.0.8/polls`)).status).toBe(404);
  });

  it('rejects with the signal’s reason, whether it aborts before or during the request', async () => {
    const fetch = inProcessFetch(createSandbox({ simulatedVotesPerMinute: 0 }), apiOrigin);
    const early = new AbortController();
    early.abort(new Error('gave up early'));
    await expect(fetch(`${apiOrigin}/polls/1.0.8/polls`, { signal: early.signal })).rejects.toThrow(
      'gave up early',
    );
    const late = new AbortController();
    const pending = fetch(`${apiOrigin}/polls/1.0.8/polls`, { signal: late.signal });
    late.abort(new Error('gave up late'));
    await expect(pending).rejects.toThrow('gave up late');
  });
});
