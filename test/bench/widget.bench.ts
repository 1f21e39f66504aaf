// Widget figures: gzip sizes of the two embed scripts, and script start -> painted card with data in Chromium.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ensureWidgetBuilt, launchChromium, startWidgetStack } from '../browser/widget-stack.ts';

const dist = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
const runs = 7;

export default async function widgetBench(): Promise<void> {
  ensureWidgetBuilt();
  const gzip = (file: string): { raw: number; gzip: number } => {
    const code = readFileSync(dist + file);
    return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
  };
  const line = (label: string, size: { raw: number; gzip: number }, targetBytes?: number): void => {
    const verdict =
      targetBytes === undefined
        ? ''
        : ` (target ${targetBytes} B) ${size.gzip <= targetBytes ? 'OK' : 'OVER'}`;
    console.log(`${label}: ${size.raw} B minified, ${size.gzip} B gzip${verdict}`);
  };
  const firstPaint = gzip('fan-polls.js');
  line('fan-polls.js (first paint: Lit, card, store with its first read)', firstPaint, 10_240);
  line('fan-polls-frame.js', gzip('fan-polls-frame.js'), 1536);
  const parts = readdirSync(dist).filter((file) => /^fan-polls\.[a-z-]+\.js$/.test(file));
  let total = firstPaint.gzip;
  for (const file of parts) {
    const size = gzip(file);
    total += size.gzip;
    line(`  lazy part ${file}`, size);
  }
  console.log(`fan-polls.js + every lazy part: ${total} B gzip (each file gzipped on its own)`);

  const stack = await startWidgetStack();
  const browser = await launchChromium();
  const timings: number[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // Painted: the first card's ready event (data rendered), then the next frame.
      await page.addInitScript(() => {
        document.addEventListener(
          'fan-poll-ready',
          () => {
            requestAnimationFrame(() => {
              (window as unknown as { paintedAt: number }).paintedAt = performance.now();
            });
          },
          { once: true },
        );
      });
      await page.goto(stack.demo.url);
      await page.waitForFunction(() => (window as unknown as { paintedAt?: number }).paintedAt !== undefined);
      // Script start: when fan-polls.js finished downloading (it runs right after).
      const ms = await page.evaluate(() => {
        const entry = performance
          .getEntriesByType('resource')
          .find((each) => each.name.endsWith('/fan-polls.js'));
        const paintedAt = (window as unknown as { paintedAt: number }).paintedAt;
        return entry ? paintedAt - (entry as PerformanceResourceTiming).responseEnd : Number.NaN;
      });
      timings.push(ms);
      await page.close();
    }
  } finally {
    await browser.close();
    await stack.close();
  }
  timings.sort((a, b) => a - b);
  const median = timings[Math.floor(timings.length / 2)] ?? Number.NaN;
  console.log(
    `script loaded -> painted card with data (Chromium, ${runs} runs): median ${median.toFixed(0)} ms, min ${timings[0]?.toFixed(0)} ms, max ${timings.at(-1)?.toFixed(0)} ms`,
  );
}
