// The buffered access log on a graceful stop: every request answered has its line, none is lost.
import { describe, expect, it } from 'vitest';
import { serveProxy } from '../../src/proxy/serve.ts';
import { serveSandbox } from '../../src/sandbox/serve.ts';

describe('the buffered access log', () => {
  it('has a line for every request once the proxy has stopped gracefully, in far fewer writes', async () => {
    const sandbox = await serveSandbox({ apiPort: 0, authPort: 0 });
    const chunks: string[] = [];
    const proxy = await serveProxy({
      port: 0,
      env: {
        FAN_POLLS_PRESET: 'sandbox',
        FAN_POLLS_PLATFORM_API_URL: sandbox.apiUrl,
        FAN_POLLS_PLATFORM_AUTH_URL: sandbox.authUrl,
      },
      logDestination: {
        write: (chunk) => chunks.push(chunk),
        writeUrgent: (level, line) => chunks.push(`${line}\n`),
      },
    });
    try {
      const ids = Array.from({ length: 300 }, (_, index) => `stop-${String(index)}`);
      await Promise.all(
        ids.map(async (id) => {
          const answer = await fetch(`${proxy.url}/healthz`, { headers: { 'X-Request-Id': id } });
          await answer.body?.cancel();
        }),
      );
      await proxy.close({ graceMs: 1000 });
      const lines = chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((record) => record.event === 'request');
      // Batched: far fewer writes than lines.
      expect(chunks.length).toBeLessThan(100);
      expect(lines.map((record) => record.requestId).sort()).toEqual([...ids].sort());
      for (const record of lines) {
        expect(Object.keys(record).sort()).toEqual([
          'event',
          'level',
          'method',
          'ms',
          'requestId',
          'route',
          'status',
          'time',
        ]);
        expect(record).toMatchObject({ level: 'info', method: 'GET', route: '/healthz', status: 200 });
      }
    } finally {
      await sandbox.close();
    }
  });
});
