// The fault bench's Redis request count: the commands a node-redis client sends through the TCP forwarder, counted
// from the bytes, agree with what Debian's redis-server says it processed, large values split across chunks and
// transactions included.
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { respCommandCounter } from '../support/resp-command-counter.ts';
import { forwardTcp, type TcpForwarder } from '../support/tcp-forwarder.ts';

let redis: TestRedis;
let link: TcpForwarder;
/** A direct connection (not through the link) that reads the server's own count. */
let admin: ReturnType<typeof createClient>;
const seen = { connections: 0, commands: 0 };

beforeAll(async () => {
  redis = await startRedis();
  link = await forwardTcp(redis.port, {
    watchClient: () => {
      seen.connections += 1;
      const count = respCommandCounter();
      return (chunk) => {
        seen.commands += count(chunk);
      };
    },
  });
  admin = createClient({ url: redis.url });
  await admin.connect();
}, 20_000);

afterAll(async () => {
  await admin.close();
  await link.close();
  await redis.close();
});

/** Commands the server processed before this `INFO` (which counts once it is done). */
async function processedByServer(): Promise<number> {
  return Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1]);
}

describe('counting Redis commands on the link', () => {
  it('counts what the server processed, whatever the chunking', async () => {
    const client = createClient({ url: `redis://127.0.0.1:${String(link.port)}` });
    await client.connect();
    // The connection's handshake (HELLO, CLIENT SETINFO) answered before counting starts.
    await client.ping();
    const before = { counted: seen.commands, processed: await processedByServer() };
    // A megabyte value crosses the link in many chunks; its bytes (with "*3" and "\r\n" inside) are not commands.
    await client.set('big', '*3\r\n$3\r\n'.repeat(128 * 1024));
    await Promise.all(Array.from({ length: 50 }, (_, index) => client.incr(`n:${String(index % 5)}`)));
    await client.multi().set('a', '').get('a').del('a').exec();
    await client.get('missing');
    const processed = (await processedByServer()) - before.processed;
    await client.close();
    // The server's count includes the first INFO that read it.
    expect(seen.commands - before.counted).toBe(processed - 1);
    // SET, 50 INCR, MULTI + 3 + EXEC, GET.
    expect(seen.commands - before.counted).toBe(1 + 50 + 5 + 1);
    expect(seen.connections).toBe(1);
  });
});
