// The live poll stream on the Workers runtime (the edge bundle on workerd, its state on Durable Objects): that state
// has no publish and subscribe, so the stream is refused with 503 `streams_full` (the page's cards read the polls
// once per window instead), and the poll read it falls back to is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollStreamPath } from '../../src/contracts/poll-stream-contract.ts';
import { privateAnswerPolicy } from '../../src/proxy/cache-policy.ts';
import { openPollIdsFromProxy } from '../support/open-poll.ts';
import { buildEdgeBundle, startWorkerd, type RunningWorkerd } from '../support/workerd.ts';
import { edgeEnvironment } from './edge-harness.ts';
import { pageOrigin, startHarness, type Harness } from './proxy-harness.ts';

let node: Harness;
let workerd: RunningWorkerd;

beforeAll(async () => {
  const bundle = await buildEdgeBundle();
  node = await startHarness();
  workerd = await startWorkerd(bundle, edgeEnvironment(node));
}, 60_000);

afterAll(async () => {
  await workerd.close();
  await node.close();
});

describe('the live poll stream on workerd', () => {
  it('is refused with 503 streams_full, and the poll read the page falls back to is served', async () => {
    const [pollId] = await openPollIdsFromProxy(node.proxy.url, 1);
    const headers = { Origin: pageOrigin };
    const stream = await fetch(`${workerd.url}${pollStreamPath}?ids[]=${pollId!}`, { headers });
    expect(stream.status).toBe(503);
    expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('streams_full');
    expect(stream.headers.get('retry-after')).toBe('5');
    expect(stream.headers.get('cache-control')).toBe(privateAnswerPolicy);
    expect(stream.headers.get('access-control-allow-origin')).toBe(pageOrigin);
    const read = await fetch(`${workerd.url}/api/polls?ids[]=${pollId!}&limit=1`, { headers });
    expect(read.status).toBe(200);
  });
});
