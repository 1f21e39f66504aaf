// The widget's and the configurator's files as the proxy serves them with no CDN in front: the build's Brotli or gzip
// copy, by the client's `Accept-Encoding`, the same content as the file, told apart by caches (`Vary`) and
// revalidated by a weak ETag.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './proxy-harness.ts';

let harness: Harness;
const widgetDir = new URL('../../dist/widget/', import.meta.url);

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness.close();
});

/** A file's bytes as the proxy sends them, undecoded (Node's fetch would decode them). */
async function rawGet(path: string, headers: Record<string, string>) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const asked = request(`${harness.proxy.url}${path}`, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers as Record<string, string>,
          body: Buffer.concat(chunks),
        });
      });
    });
    asked.on('error', reject);
    asked.end();
  });
}

const decoders: Record<string, (bytes: Buffer) => Buffer> = {
  br: brotliDecompressSync,
  gzip: gunzipSync,
  identity: (bytes) => bytes,
};

describe('compressed at the source', () => {
  const hydrate = readFileSync(new URL('fan-polls-hydrate.js', widgetDir));

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['identity', 'identity'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0', 'identity'],
  ])('answers Accept-Encoding "%s" in %s, the same content as the file', async (acceptEncoding, coding) => {
    const answer = await rawGet('/widget/fan-polls-hydrate.js', { 'Accept-Encoding': acceptEncoding });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding'] ?? 'identity').toBe(coding);
    expect(answer.headers.vary).toContain('Accept-Encoding');
    expect(decoders[coding]?.(answer.body).equals(hydrate)).toBe(true);
    if (coding !== 'identity') expect(answer.body.byteLength).toBeLessThan(hydrate.byteLength / 2);
  });

  it('sends a pinned entry and a hashed chunk compressed, and revalidates the compressed copy with a 304', async () => {
    const { scriptTagCard } = JSON.parse(readFileSync(new URL('version.json', widgetDir), 'utf8')) as {
      scriptTagCard: string[];
    };
    for (const file of scriptTagCard) {
      const answer = await rawGet(`/widget/v0.1.0/${file}`, { 'Accept-Encoding': 'gzip, br' });
      expect([file, answer.headers['content-encoding']]).toEqual([file, 'br']);
      expect(answer.headers.etag).toMatch(/^W\//);
      const again = await rawGet(`/widget/v0.1.0/${file}`, {
        'Accept-Encoding': 'gzip, br',
        'If-None-Match': answer.headers.etag ?? '',
      });
      expect([file, again.status, again.body.byteLength]).toEqual([file, 304, 0]);
    }
  });

  it('sends the configurator’s script compressed too', async () => {
    const page = readFileSync(new URL('../../dist/configurator/index.html', import.meta.url), 'utf8');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const answer = await rawGet(`/configurator/${script ?? ''}`, { 'Accept-Encoding': 'br' });
    expect([answer.status, answer.headers['content-encoding']]).toEqual([200, 'br']);
  });
});
