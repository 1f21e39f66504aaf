import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zipForStore } from './store-zip.ts';

// Each archive is read back by Debian's Info-ZIP `unzip`, as a store's upload checker would.
const unzip = (...args: string[]): string => execFileSync('unzip', args, { encoding: 'utf8' });

const developmentManifest = '{"name":"Fan Polls","version":"0.1.0","key":"development"}';
const withoutKey = (text: string): string => {
  const { key: _key, ...store } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(store);
};

let folder: string;
let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'fan-polls-zip-'));
  folder = join(work, 'extension');
  await mkdir(join(folder, 'content', 'deeper'), { recursive: true });
  await writeFile(join(folder, 'manifest.json'), developmentManifest);
  await writeFile(join(folder, 'content', 'page-bridge.iife.js'), 'console.log("bridge");\n'.repeat(200));
  await writeFile(join(folder, 'content', 'deeper', 'notes.txt'), 'Ünïcödé text');
  await writeFile(join(folder, 'icon.bin'), Buffer.from(Array.from({ length: 256 }, (_, n) => n)));
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('zipForStore', () => {
  it('packs every file with its path inside the folder, byte for byte, and the store manifest', async () => {
    const zip = join(work, 'fan-polls-chrome.zip');
    await zipForStore(folder, zip, withoutKey);
    const names = unzip('-Z1', zip)
      .trim()
      .split('\n')
      .filter((name) => !name.endsWith('/'));
    expect(names.sort()).toEqual([
      'content/deeper/notes.txt',
      'content/page-bridge.iife.js',
      'icon.bin',
      'manifest.json',
    ]);
    // -t checks each entry's CRC-32 and sizes against its inflated data.
    expect(unzip('-t', zip)).toContain('No errors detected');
    expect(JSON.parse(unzip('-p', zip, 'manifest.json'))).toEqual({ name: 'Fan Polls', version: '0.1.0' });
    for (const name of ['content/page-bridge.iife.js', 'content/deeper/notes.txt']) {
      expect(unzip('-p', zip, name)).toBe(await readFile(join(folder, name), 'utf8'));
    }
    const binary = execFileSync('unzip', ['-p', zip, 'icon.bin']);
    expect(binary.equals(await readFile(join(folder, 'icon.bin')))).toBe(true);
    // The build folder keeps its development manifest.
    expect(await readFile(join(folder, 'manifest.json'), 'utf8')).toBe(developmentManifest);
  });

  it('replaces the zip of an earlier build', async () => {
    const zip = join(work, 'fan-polls-firefox.zip');
    await zipForStore(folder, zip, withoutKey);
    await writeFile(join(folder, 'icon.bin'), 'newer');
    await zipForStore(folder, zip, withoutKey);
    expect(unzip('-p', zip, 'icon.bin')).toBe('newer');
  });
});
