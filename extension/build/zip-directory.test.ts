import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { zipDirectory } from './zip-directory.ts';

// Each archive is read back by Debian's Info-ZIP `unzip`, as a store's upload checker would.
const unzip = (...args: string[]): string => execFileSync('unzip', args, { encoding: 'utf8' });

/** The names in the archive's central directory, as written: UTF-8, flagged so (general purpose bit 11). */
function centralNames(zip: Buffer): string[] {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const names: string[] = [];
  let at = zip.readUInt32LE(end + 16);
  for (let entry = 0; entry < zip.readUInt16LE(end + 10); entry++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    expect(zip.readUInt16LE(at + 8) & 0x0800).toBe(0x0800);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skip;
  }
  return names;
}

let folder: string;
let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'fan-polls-zip-'));
  folder = join(work, 'extension');
  await mkdir(join(folder, 'content', 'deeper'), { recursive: true });
  await writeFile(join(folder, 'manifest.json'), '{"name":"Fan Polls","version":"0.1.0"}');
  await writeFile(join(folder, 'content', 'page-bridge.iife.js'), 'console.log("bridge");\n'.repeat(200));
  await writeFile(join(folder, 'content', 'deeper', 'café.txt'), 'Ünïcödé name and text');
  await writeFile(join(folder, 'icon.bin'), Buffer.from(Array.from({ length: 256 }, (_, n) => n)));
  await writeFile(join(folder, 'empty.txt'), '');
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('zipDirectory', () => {
  it('writes every file, sorted, with its path inside the folder, that unzip reads back byte for byte', async () => {
    const zip = join(work, 'out.zip');
    expect(await zipDirectory(folder, zip)).toBe(5);
    expect(centralNames(await readFile(zip))).toEqual([
      'content/deeper/café.txt',
      'content/page-bridge.iife.js',
      'empty.txt',
      'icon.bin',
      'manifest.json',
    ]);
    expect(unzip('-Z1', zip).trim().split('\n')).toHaveLength(5);
    // -t checks each entry's CRC-32 and sizes against its inflated data.
    expect(unzip('-t', zip)).toContain('No errors detected');
    for (const name of ['manifest.json', 'content/page-bridge.iife.js', 'empty.txt']) {
      expect(unzip('-p', zip, name)).toBe(await readFile(join(folder, name), 'utf8'));
    }
    // Info-ZIP reads the name of an entry "made on FAT" through a DOS code page despite the UTF-8 flag:
    // a pattern finds it.
    expect(unzip('-p', zip, 'content/deeper/caf*')).toBe('Ünïcödé name and text');
    const binary = execFileSync('unzip', ['-p', zip, 'icon.bin']);
    expect(binary.equals(await readFile(join(folder, 'icon.bin')))).toBe(true);
  });

  it('compresses (deflate) and stamps every entry 2020-01-01 00:00, so two builds give the same bytes', async () => {
    const first = join(work, 'first.zip');
    const second = join(work, 'second.zip');
    await zipDirectory(folder, first);
    await zipDirectory(folder, second);
    expect((await readFile(first)).equals(await readFile(second))).toBe(true);
    const listing = execFileSync('zipinfo', ['-T', '-l', first], { encoding: 'utf8' });
    const bridge = listing.split('\n').find((line) => line.endsWith('content/page-bridge.iife.js'));
    const [, size, compressed, stamp] =
      /fat\s+(\d+)\s+\S+\s+(\d+)\s+def[NXFS]\s+(\S+)/.exec(bridge ?? '') ?? [];
    expect(stamp).toBe('20200101.000000');
    expect(Number(compressed)).toBeLessThan(Number(size) / 10);
  });

  it('rewrites named files in the archive only, leaving the folder as it was', async () => {
    const zip = join(work, 'store.zip');
    await zipDirectory(folder, zip, {
      'manifest.json': (text) =>
        JSON.stringify({ ...(JSON.parse(text) as object), key: undefined, store: true }),
    });
    expect(JSON.parse(unzip('-p', zip, 'manifest.json'))).toEqual({
      name: 'Fan Polls',
      version: '0.1.0',
      store: true,
    });
    expect(await readFile(join(folder, 'manifest.json'), 'utf8')).toBe(
      '{"name":"Fan Polls","version":"0.1.0"}',
    );
    expect(unzip('-t', zip)).toContain('No errors detected');
  });

  it('writes a valid empty archive for an empty folder', async () => {
    const empty = join(work, 'nothing');
    await mkdir(empty);
    const zip = join(work, 'empty.zip');
    expect(await zipDirectory(empty, zip)).toBe(0);
    expect((await readFile(zip)).length).toBe(22);
  });
});
