// Request paths the proxy cannot read (a percent-escape that does not decode, an escaped control character, a request
// line Node refuses) answer 4xx on every route, with the proxy's coded error body where the proxy sees the request:
// never a 500 from a `URIError`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyErrorBody } from '../../src/contracts/proxy-contract.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';

let widgetDir: string;
let stack: SandboxAndProxy;

beforeAll(async () => {
  widgetDir = await mkdtemp(join(tmpdir(), 'fan-polls-widget-'));
  await writeFile(join(widgetDir, 'fan-polls.js'), 'export {};\n');
  await writeFile(join(widgetDir, 'version.json'), '{"version":"1.2.3"}\n');
  stack = await startSandboxAndProxy({
    proxy: {
      env: { FAN_POLLS_ALLOWED_ORIGINS: 'https://www.club.example', FAN_POLLS_WIDGET_DIR: widgetDir },
    },
  });
});

afterAll(async () => {
  await stack.close();
  await rm(widgetDir, { recursive: true, force: true });
});

/** What the proxy answers a request line sent as it is (fetch would normalize some of these paths). */
async function rawGet(path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(stack.proxy.url);
  const socket = connect(Number(port), hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
  let answer = '';
  for await (const chunk of socket) answer += String(chunk);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  return { status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
}

async function expectBadRequest(path: string): Promise<void> {
  const { status, body } = await rawGet(path);
  expect({ path, status }).toEqual({ path, status: 400 });
  // Chunked or not, the JSON body is in there.
  const json = body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1);
  expect((JSON.parse(json) as ProxyErrorBody).error.code).toBe('bad_request');
}

describe('a path that does not percent-decode', () => {
  it('is a 400 bad_request under /widget/ (a pinned path too)', async () => {
    await expectBadRequest('/widget/%E0%A4%A');
    await expectBadRequest('/widget/v1.2.3/%E0%A4%A');
    await expectBadRequest('/widget/fan-polls%ZZ.js');
  });

  it('is a 400 bad_request under /configurator/', async () => {
    await expectBadRequest('/configurator/%E0%A4%A');
    await expectBadRequest('/configurator/assets/%C0%AF.js');
  });

  it('is a 400 bad_request on every other route, and on no route at all', async () => {
    for (const path of [
      '/api/polls/%E0%A4%A',
      '/api/polls%FF',
      '/api/user/polls/%E0%A4%A/vote',
      '/auth/login%E0%A4%A?origin=https%3A%2F%2Fwww.club.example',
      '/auth/session/%',
      '/extension/token%80',
      '/healthz%E0',
      '/no-such-route/%E0%A4%A',
    ])
      await expectBadRequest(path);
  });
});

describe('other malformed paths', () => {
  it('answers an escaped control character 400 bad_request', async () => {
    await expectBadRequest('/widget/fan-polls.js%00');
    await expectBadRequest('/auth/session%0d%0aSet-Cookie:%20x=1');
    await expectBadRequest('/configurator/%7F');
  });

  it('answers 4xx to request lines Node refuses before the proxy sees them', async () => {
    for (const path of ['/widget/a\u0001b', '/auth/session\u007f']) {
      const { status } = await rawGet(path);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });

  it('still serves well-formed escapes and the files they name', async () => {
    expect((await rawGet('/widget/fan%2Dpolls.js')).status).toBe(200);
    expect((await rawGet('/widget/v1.2.3/fan-polls.js')).status).toBe(200);
    expect((await rawGet('/api/polls/not-a-uuid')).status).toBe(400);
  });
});
