// Writes the extension's icons (public/extension/icons/icon-<size>.png): a round badge with three poll bars.
// Run with `npx tsx extension/build/make-icons.ts`; the PNGs are committed, so builds do not need this.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

const sizes = [16, 32, 48, 128];
const badge = [0x1d, 0x4e, 0xd8];
const bar = [0xff, 0xff, 0xff];

function pixel(size: number, x: number, y: number): number[] {
  const centre = size / 2;
  const distance = Math.hypot(x + 0.5 - centre, y + 0.5 - centre);
  if (distance > centre) return [0, 0, 0, 0];
  const u = (x + 0.5) / size;
  const v = (y + 0.5) / size;
  // Three horizontal bars of different lengths: a poll's results.
  const bars = [
    [0.3, 0.38, 0.72],
    [0.46, 0.54, 0.58],
    [0.62, 0.7, 0.45],
  ];
  const onBar = bars.some(
    ([top = 0, bottom = 0, right = 0]) => v >= top && v < bottom && u >= 0.26 && u < right,
  );
  return [...(onBar ? bar : badge), 255];
}

function png(size: number): Buffer {
  const image = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) image.data.set(pixel(size, x, y), (y * size + x) * 4);
  }
  return PNG.sync.write(image);
}

const folder = resolve(dirname(fileURLToPath(import.meta.url)), '../../public/extension/icons');
mkdirSync(folder, { recursive: true });
for (const size of sizes) writeFileSync(resolve(folder, `icon-${size}.png`), png(size));
console.log(`Wrote ${sizes.length} icons to ${folder}`);
