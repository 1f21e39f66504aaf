import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/platform/http.ts';
import { ProxyTokenClient } from './proxy-token-client.ts';

const proxyUrl = 'http://127.0.0.1:9';

function clientAnswering(answer: () => Response | Promise<Response>): ProxyTokenClient {
  const fetch: FetchLike = () => Promise.resolve(answer());
  return new ProxyTokenClient(() => Promise.resolve(proxyUrl), fetch);
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('ProxyTokenClient.refresh', () => {
  it('is invalid_grant only when the proxy says the refresh token was refused', async () => {
    const refused = clientAnswering(() =>
      json(400, { error: { code: 'invalid_grant', message: 'The platform refused this code or token.' } }),
    );
    await expect(refused.refresh('CANARY-r')).rejects.toMatchObject({ code: 'invalid_grant' });
  });

  it.each([
    ['a wrong proxy URL (404)', () => new Response('Not here', { status: 404 })],
    [
      'an origin the proxy does not list (403)',
      () => json(403, { error: { code: 'extension_not_allowed', message: 'No' } }),
    ],
    [
      'a body the proxy did not understand (400)',
      () => json(400, { error: { code: 'invalid_body', message: 'No' } }),
    ],
  ])('is a passing failure, not a sign-out, for %s', async (_name, answer) => {
    await expect(clientAnswering(answer).refresh('CANARY-r')).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('turns a body that breaks off into unavailable, without the token in the message', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new TypeError('terminated'));
      },
    });
    const client = clientAnswering(() => new Response(broken, { status: 200 }));
    const error: unknown = await client.refresh('CANARY-r').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).not.toContain('CANARY');
  });
});
