import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

/** Rewrites a file's text on its way into the archive (by its path inside the archive). */
export type ZipRewrites = Readonly<Record<string, (text: string) => string>>;

/**
 * Zips a folder for the stores with node's zlib: a minimal, deterministic writer (files sorted, fixed timestamps,
 * deflate), no new package and no `zip` binary needed. `rewrites` change named files in the archive only.
 */
export async function zipDirectory(
  folder: string,
  zipPath: string,
  rewrites: ZipRewrites = {},
): Promise<number> {
  const files = (await listFiles(folder)).sort();
  const localParts: Buffer[] = [];
  const centralParts: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const path = relative(folder, file).split(sep).join('/');
    const name = Buffer.from(path, 'utf8');
    const rewrite = rewrites[path];
    const data = rewrite ? Buffer.from(rewrite(await readFile(file, 'utf8')), 'utf8') : await readFile(file);
    const compressed = deflateRawSync(data, { level: 9 });
    const checksum = crc32(data);
    const dosTime = 0; // 00:00:00
    const dosDate = ((2020 - 1980) << 9) | (1 << 5) | 1; // 2020-01-01, fixed for reproducible archives

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    localParts.push(local, name, compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // version made by
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centralParts.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const centralSize = centralParts.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(zipPath, Buffer.concat([...localParts, ...centralParts, end]));
  return files.length;
}

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}
