import { request as httpRequest, Agent } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from './loopback-server.ts';

describe('listenOnLoopback', () => {
  it('serves the handler on a free loopback port and reports its URL', async () => {
    const running = await listenOnLoopback(
      (request) => new Response(`seen ${new URL(request.url).pathname}`),
      0,
    );
    try {
      expect(running.port).toBeGreaterThan(0);
      expect(running.url).toBe(`http://127.0.0.1:${running.port}`);
      const response = await fetch(`${running.url}/hello`);
      await expect(response.text()).resolves.toBe('seen /hello');
    } finally {
      await closeServer(running.server);
    }
  });

  it('rejects when the port is taken', async () => {
    const first = await listenOnLoopback(() => new Response('first'), 0);
    try {
      await expect(listenOnLoopback(() => new Response('second'), first.port)).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await closeServer(first.server);
    }
  });
});

describe('closeServer', () => {
  it('closes with an idle keep-alive connection open, and the port stops answering', async () => {
    const running = await listenOnLoopback(() => new Response('ok'), 0);
    const agent = new Agent({ keepAlive: true });
    try {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        httpRequest(`${running.url}/`, { agent }, (response) => {
          response.resume();
          response.on('end', () => {
            resolve(response.statusCode);
          });
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
      await closeServer(running.server);
      await expect(fetch(`${running.url}/`)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });

  it('rejects for a server that is not listening', async () => {
    const running = await listenOnLoopback(() => new Response('ok'), 0);
    await closeServer(running.server);
    await expect(closeServer(running.server)).rejects.toMatchObject({ code: 'ERR_SERVER_NOT_RUNNING' });
  });
});
