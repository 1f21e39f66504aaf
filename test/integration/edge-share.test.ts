// A poll's share link on the Workers runtime: the built edge bundle on workerd, beside the Node proxy on the same
// sandbox, answers the same share page, the same share image (drawn by the same satori and resvg, their WebAssembly
// and the fonts uploaded as the Worker's modules: `src/edge/edge-modules.ts`) and the same oEmbed.
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareImagePath, shareImageSize, sharePagePath } from '../../src/contracts/share-contract.ts';
import type { Poll } from '../../src/platform/types.ts';
import { buildEdgeBundle, startWorkerd, type RunningWorkerd } from '../support/workerd.ts';
import { edgeEnvironment } from './edge-harness.ts';
import { startHarness, type Harness } from './proxy-harness.ts';

const shareTarget = 'https://www.club.example/polls/{pollId}';

let node: Harness;
let workerd: RunningWorkerd;
let polls: Poll[];

beforeAll(async () => {
  const bundle = await buildEdgeBundle();
  node = await startHarness({ shareTarget });
  node.sandbox.sandbox.simulation.setRate(0);
  workerd = await startWorkerd(bundle, edgeEnvironment(node, { FAN_POLLS_SHARE_TARGET: shareTarget }));
  polls = ((await (await node.call('/api/polls?limit=50')).json()) as { data: Poll[] }).data;
}, 60_000);

afterAll(async () => {
  await workerd.close();
  await node.close();
});

const openPoll = () => polls.find((poll) => poll.status === 'open' && poll.answers.length <= 4)!;

/** Node's answer text as the Worker, at its own URL, should say it. */
const atEdge = (text: string) =>
  text
    .replaceAll(node.proxy.url, workerd.url)
    .replaceAll(encodeURIComponent(node.proxy.url), encodeURIComponent(workerd.url));

/** The `content` of a meta tag (`property` or `name`), as the page's HTML has it (escaped). */
function meta(html: string, key: string): string | undefined {
  return new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];
}

describe('the share link on workerd', () => {
  it('answers the share page Node answers, naming the Worker’s image, with an ETag and a 304', async () => {
    const open = openPoll();
    const [fromNode, fromEdge] = await Promise.all([
      fetch(`${node.proxy.url}${sharePagePath(open.id)}`),
      fetch(`${workerd.url}${sharePagePath(open.id)}`),
    ]);
    expect(fromEdge.status).toBe(200);
    expect(fromEdge.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await fromEdge.text();
    expect(html).toBe(atEdge(await fromNode.text()));
    expect(meta(html, 'og:title')).toBe(open.question);
    expect(meta(html, 'og:image')).toBe(`${workerd.url}${shareImagePath(open.id)}`);
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(fromEdge.headers.get('content-security-policy')).toBe(
      atEdge(fromNode.headers.get('content-security-policy')!),
    );
    expect(fromEdge.headers.get('cache-control')).toBe(fromNode.headers.get('cache-control'));
    const notModified = await fetch(`${workerd.url}${sharePagePath(open.id)}`, {
      headers: { 'If-None-Match': fromEdge.headers.get('etag')! },
    });
    expect(notModified.status).toBe(304);
  });

  it('draws the share image Node draws: a 1200 × 630 PNG, the same pixels, the same ETag again and a 304', async () => {
    const open = openPoll();
    const imageUrl = `${workerd.url}${shareImagePath(open.id)}`;
    const first = await fetch(imageUrl);
    expect(first.status, workerd.output.join('\n')).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await first.arrayBuffer());
    const decoded = PNG.sync.read(bytes);
    expect({ width: decoded.width, height: decoded.height }).toEqual(shareImageSize);

    const fromNode = await fetch(`${node.proxy.url}${shareImagePath(open.id)}`);
    const nodePng = PNG.sync.read(Buffer.from(await fromNode.arrayBuffer()));
    expect(decoded.data.equals(nodePng.data)).toBe(true);
    expect(first.headers.get('cache-control')).toBe(fromNode.headers.get('cache-control'));

    const etag = first.headers.get('etag')!;
    const again = await fetch(imageUrl);
    expect(again.headers.get('etag')).toBe(etag);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    const notModified = await fetch(imageUrl, { headers: { 'If-None-Match': etag } });
    expect(notModified.status).toBe(304);
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);
    // The first drawing starts the WebAssembly and loads the fonts; the margin is for a loaded runner.
  }, 30_000);

  it('answers the oEmbed Node answers for the Worker’s share link', async () => {
    const open = openPoll();
    const oembed = (base: string) =>
      fetch(`${base}/oembed?url=${encodeURIComponent(`${base}${sharePagePath(open.id)}`)}&format=json`);
    const [fromNode, fromEdge] = await Promise.all([oembed(node.proxy.url), oembed(workerd.url)]);
    expect(fromEdge.status).toBe(200);
    expect(fromEdge.headers.get('content-type')).toBe(fromNode.headers.get('content-type'));
    const body = (await fromEdge.json()) as Record<string, unknown>;
    expect(body).toEqual(JSON.parse(atEdge(await fromNode.text())));
    expect(body).toMatchObject({ version: '1.0', type: 'rich' });
  });

  it('draws Arabic, Hebrew, Cyrillic and Greek with the fonts it carries, as Node does', async () => {
    const poll = polls.find((each) => each.status === 'open' && each.id !== openPoll().id)!;
    const stored = node.sandbox.sandbox.polls.find(poll.id)!;
    Object.assign(stored, { question: 'من هو أفضل لاعب في المباراة؟ Кто лучший игрок?' });
    Object.assign(stored.answers[0] ?? {}, { text: 'מי השחקן הטוב ביותר' });
    Object.assign(stored.answers[1] ?? {}, { text: 'Ποιος ήταν ο καλύτερος' });
    const [fromEdge, fromNode] = await Promise.all(
      [workerd.url, node.proxy.url].map(async (base) => {
        const answer = await fetch(`${base}${shareImagePath(poll.id)}`);
        expect(answer.status, workerd.output.join('\n')).toBe(200);
        return PNG.sync.read(Buffer.from(await answer.arrayBuffer()));
      }),
    );
    expect(fromEdge!.data.equals(fromNode!.data)).toBe(true);
  }, 30_000);
});
