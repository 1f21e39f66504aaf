// `npm run bench -- share-image`: the share image's drawing (satori, then resvg-wasm) on this machine, one card at a
// time: the first drawing (resvg's WebAssembly and the fonts start) apart, then the median and p95 of 50 more.
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { readShareImageAssets } from '../../src/node/share-image-assets.ts';
import { shareCardOf } from '../../src/proxy/share/share-card.ts';
import { shareImageRenderer } from '../../src/proxy/share/share-image-drawing.ts';
import { answerFixture, fixtureTimes, pollFixture } from '../../src/polls/poll-fixture.ts';

const draws = 50;

export default async function shareImageBench(): Promise<void> {
  const render = shareImageRenderer(readShareImageAssets);
  // An open poll of four answers with votes: the image with every part drawn (bars, shares, the leader).
  const answers = ['Ada Lovelace', 'Bea Ortiz', 'Cai Lun', 'Dee Okafor'].map((answer, index) =>
    answerFixture({ id: `a${String(index + 1)}`, answer, totalVoteTokensUsed: 100 * (index + 1) }),
  );
  const card = shareCardOf(pollFixture({ answers }), fixtureTimes.whileOpen, undefined);
  let started = performance.now();
  await render(card);
  const first = performance.now() - started;
  const times: number[] = [];
  for (let draw = 0; draw < draws; draw++) {
    started = performance.now();
    await render(card);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (fraction: number) =>
    times[Math.min(times.length - 1, Math.floor(fraction * times.length))] ?? NaN;
  console.log(
    `share image 1200x630: first ${first.toFixed(0)} ms; next ${String(draws)}: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`,
  );
  await recordBenchResults('share-image', [
    {
      id: 'drawing-p50',
      what: "an open poll's share image, 1200 x 630: one drawing, median of 50",
      value: Number(at(0.5).toFixed(1)),
      unit: 'ms',
      target: { comparison: '<=', value: 100 },
      detail: `p95 ${at(0.95).toFixed(1)} ms; the first drawing ${Math.round(first).toLocaleString('en')} ms`,
    },
  ]);
}
