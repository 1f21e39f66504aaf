import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { deadline } from './deadline.ts';

/** A full garbage collection, without starting Node with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => {
    signal.addEventListener('abort', () => {
      resolve(signal.reason);
    });
  });

describe('deadline', () => {
  it('aborts after its time with a TimeoutError, as AbortSignal.timeout does', async () => {
    const limit = deadline(20);
    const reason = await aborted(limit.signal);
    expect((reason as DOMException).name).toBe('TimeoutError');
  });

  it('aborts at once with the reason of a parent that aborts first, and follows a parent already aborted', async () => {
    const parent = new AbortController();
    const limit = deadline(60_000, undefined, parent.signal);
    const reason = aborted(limit.signal);
    parent.abort('caller gave up');
    expect(await reason).toBe('caller gave up');
    expect(deadline(60_000, AbortSignal.abort('already')).signal.reason).toBe('already');
    limit.clear();
  });

  it('never aborts once cleared', () => {
    vi.useFakeTimers();
    try {
      const limit = deadline(10);
      limit.clear();
      vi.advanceTimersByTime(40);
      expect(limit.signal.aborted).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('aborts a fetch on time through garbage collections (AbortSignal.any of a timeout hangs so on Node 20)', async () => {
    // A server that never answers; a collection every 50 ms while the fetch waits.
    const server = createServer(() => undefined).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const collecting = setInterval(collectGarbage, 50);
    try {
      const outer = deadline(5000);
      const started = Date.now();
      const outcome = await fetch(`http://127.0.0.1:${String(port)}/`, {
        signal: deadline(300, outer.signal).signal,
      }).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      outer.clear();
      expect(outcome).toBe('TimeoutError');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      clearInterval(collecting);
      server.closeAllConnections();
      server.close();
    }
  });
});
