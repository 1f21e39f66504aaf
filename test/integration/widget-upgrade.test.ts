// A widget upgrade as partners' pages live through it: a page loads the 0.1.0 entry, the proxy is upgraded to 0.2.0
// behind a round-robin pair (old and new instance side by side, then new only), and every chunk the old entry
// imports keeps loading from either instance; a snippet pinned to v0.1.0 gets the 0.2.0 entry, whose chunks load too.
// The two builds are small stand-ins, merged by the widget build's own code (widget/build/widget-releases.ts).
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveProxy, type RunningProxy } from '../../src/proxy/serve.ts';
import {
  readPreviousBuilds,
  releasesFile,
  retainReleases,
  type WidgetReleases,
} from '../../widget/build/widget-releases.ts';
import { startRoundRobin, type RoundRobin } from '../support/round-robin.ts';

let folder: string;
let oldProxy: RunningProxy;
let newProxy: RunningProxy;
let balancer: RoundRobin;
const builtAt = { old: new Date('2026-11-01T10:00:00Z'), new: new Date('2026-11-20T10:00:00Z') };

/** A build as the widget build lays it out: stable entries, hashed chunks importing each other, version.json. */
async function writeBuild(dir: string, version: string, hash: string): Promise<void> {
  const files: Record<string, string> = {
    'fan-polls.js': `import("./chunks/page-widget-${hash}1.js").then((m) => m.define("${version}"));\n`,
    'fan-polls-frame.js': `import("./chunks/page-widget-${hash}1.js");\n`,
    [`chunks/page-widget-${hash}1.js`]: `import { card } from "./card-${hash}2.js";\nexport const define = (v) => card(v);\nexport const french = () => import("./messages-fr-${hash}3.js");\n`,
    [`chunks/card-${hash}2.js`]: `export const card = (v) => "card ${version} " + v;\n`,
    [`chunks/messages-fr-${hash}3.js`]: `export const messages = { vote: "Voter (${version})" };\n`,
    'version.json': JSON.stringify({ version }) + '\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/** What a browser's module loader fetches for an entry: the entry, then every import, relative to the importer. */
async function loadModuleGraph(entryUrl: string): Promise<Map<string, { status: number; text: string }>> {
  const loaded = new Map<string, { status: number; text: string }>();
  const queue = [entryUrl];
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    if (loaded.has(url)) continue;
    const answer = await fetch(url);
    const text = await answer.text();
    loaded.set(url, { status: answer.status, text });
    for (const [, specifier] of text.matchAll(/(?:import\(|from )\s*"([^"]+)"/g))
      if (specifier !== undefined) queue.push(new URL(specifier, url).href);
  }
  return loaded;
}

/** Only warnings and errors (a request log line per chunk would bury the output). */
const quiet = {
  logSink: (level: string, line: string) => {
    if (level !== 'info') console.warn(line);
  },
};

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fan-polls-upgrade-'));
  const oldBuild = join(folder, 'old');
  const newBuild = join(folder, 'new');
  await writeBuild(oldBuild, '0.1.0', 'OldHash');
  await retainReleases(oldBuild, '0.1.0', await readPreviousBuilds([oldBuild]), builtAt.old);
  // The new build on a clean build server, pointed at the deployed folder (FAN_POLLS_PREVIOUS_WIDGET_DIR).
  const previous = await readPreviousBuilds([newBuild, oldBuild]);
  await writeBuild(newBuild, '0.2.0', 'NewHash');
  await retainReleases(newBuild, '0.2.0', previous, builtAt.new);
  const sandboxPreset = { FAN_POLLS_PRESET: 'sandbox' };
  oldProxy = await serveProxy({
    port: 0,
    env: { ...sandboxPreset, FAN_POLLS_WIDGET_DIR: oldBuild },
    deps: quiet,
  });
  newProxy = await serveProxy({
    port: 0,
    env: { ...sandboxPreset, FAN_POLLS_WIDGET_DIR: newBuild },
    deps: quiet,
  });
  balancer = await startRoundRobin([oldProxy.url]);
});

afterAll(async () => {
  await balancer.close();
  await oldProxy.close();
  await newProxy.close();
  await rm(folder, { recursive: true, force: true });
});

describe('a widget upgrade', () => {
  it('keeps every chunk of a page that loaded the old entry, from the old and the new instance alike', async () => {
    balancer.setBackends([oldProxy.url]);
    const before = await loadModuleGraph(`${balancer.url}/widget/v0.1.0/fan-polls.js`);
    expect([...before.values()].every(({ status }) => status === 200)).toBe(true);
    expect(before.size).toBe(4);

    // The rolling deploy: old and new instance side by side, each request to the next one.
    balancer.setBackends([oldProxy.url, newProxy.url]);
    for (let round = 0; round < 2; round++) {
      for (const [url, { text }] of before) {
        if (url.endsWith('/fan-polls.js')) continue;
        const again = await fetch(url);
        expect({ url, status: again.status }).toEqual({ url, status: 200 });
        expect(await again.text()).toBe(text);
      }
    }
    const chunkAnswers = balancer.served.filter(({ path }) => path.includes('/chunks/'));
    expect(new Set(chunkAnswers.map(({ backend }) => backend))).toEqual(
      new Set([oldProxy.url, newProxy.url]),
    );

    // The deploy done: the old instance gone, the old page's chunks still there (the lazily imported French too).
    balancer.setBackends([newProxy.url]);
    for (const url of before.keys())
      if (!url.endsWith('/fan-polls.js')) expect((await fetch(url)).status).toBe(200);
  });

  it('serves a snippet pinned to the previous version the current entry, whose chunks load', async () => {
    balancer.setBackends([newProxy.url]);
    const pinned = await loadModuleGraph(`${balancer.url}/widget/v0.1.0/fan-polls.js`);
    expect([...pinned.values()].every(({ status }) => status === 200)).toBe(true);
    const entry = pinned.get(`${balancer.url}/widget/v0.1.0/fan-polls.js`);
    expect(entry?.text).toContain('define("0.2.0")');
    expect([...pinned.keys()].some((url) => url.includes('NewHash'))).toBe(true);
    const frame = await fetch(`${balancer.url}/widget/v0.1.0/fan-polls-frame.js`);
    expect(frame.status).toBe(200);
    // Another major is not compatible: a 404 that names the version served.
    const otherMajor = await fetch(`${balancer.url}/widget/v1.0.0/fan-polls.js`);
    expect(otherMajor.status).toBe(404);
    expect(((await otherMajor.json()) as { error: { message: string } }).error.message).toContain('0.2.0');
  });

  it('says in releases.json which build shipped which chunk, and since when the old one is retired', async () => {
    const manifest = JSON.parse(await readFile(join(folder, 'new', releasesFile), 'utf8')) as WidgetReleases;
    expect(manifest.releases.map(({ version, retiredAt }) => ({ version, retiredAt }))).toEqual([
      { version: '0.2.0', retiredAt: undefined },
      { version: '0.1.0', retiredAt: builtAt.new.toISOString() },
    ]);
    expect(manifest.releases[1]?.files).toEqual([
      'chunks/card-OldHash2.js',
      'chunks/messages-fr-OldHash3.js',
      'chunks/page-widget-OldHash1.js',
    ]);
  });
});
