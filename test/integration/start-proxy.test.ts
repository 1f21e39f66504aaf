// `npm start`'s proxy with nothing set in the shell: the environment `src/dev/start.ts` gives it, served in front of
// a real sandbox, answers the demo page's poll reads and any page on this machine (the sandbox preset).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyEnvironment } from '../../src/dev/start-proxy-environment.ts';
import { serveProxy, type RunningProxy } from '../../src/proxy/serve.ts';
import { serveSandbox, type RunningSandbox } from '../../src/sandbox/serve.ts';

const demoUrl = 'http://127.0.0.1:4030';
let sandbox: RunningSandbox;
let proxy: RunningProxy;

beforeAll(async () => {
  sandbox = await serveSandbox({ apiPort: 0, authPort: 0 });
  proxy = await serveProxy({
    env: startProxyEnvironment({}, sandbox, demoUrl),
    port: 0,
    deps: { logSink: () => undefined },
  });
});

afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

describe('npm start with no setting', () => {
  it('runs the proxy on the sandbox preset and serves the demo page and local pages', async () => {
    expect(proxy.config.preset).toBe('sandbox');
    for (const origin of [demoUrl, 'http://localhost:8080']) {
      const polls = await fetch(`${proxy.url}/api/polls?limit=2`, { headers: { Origin: origin } });
      expect(polls.status).toBe(200);
      expect(polls.headers.get('access-control-allow-origin')).toBe(origin);
      expect(((await polls.json()) as { data: unknown[] }).data).toHaveLength(2);
    }
  });
});
