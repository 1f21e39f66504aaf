// `npm run bench -- share-image`: the share image's drawing (satori, then resvg-wasm) on this machine, one card at a
// time: the first drawing (resvg's WebAssembly and the fonts start) apart, then the median and p95 of 50 more. Then
// the same for a poll in other scripts, whose first drawing also reads the fallback fonts it needs.
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { readShareImageAssets } from '../../src/node/share-image-assets.ts';
import { shareCardOf } from '../../src/proxy/share/share-card.ts';
import { shareImageRenderer } from '../../src/proxy/share/share-image-drawing.ts';
import { answerFixture, fixtureTimes, pollFixture } from '../../src/polls/poll-fixture.ts';

const draws = 50;

type Render = ReturnType<typeof shareImageRenderer>;
type Card = Parameters<Render>[0];

/** An open poll of four answers with votes: the image with every part drawn (bars, shares, the leader). */
function openPoll(question: string | undefined, answerTexts: readonly string[]): Card {
  const answers = answerTexts.map((answer, index) =>
    answerFixture({ id: `a${String(index + 1)}`, answer, totalVoteTokensUsed: 100 * (index + 1) }),
  );
  const poll = pollFixture(question === undefined ? { answers } : { question, answers });
  return shareCardOf(poll, fixtureTimes.whileOpen, undefined);
}

/** The first drawing of `card`, then the median and p95 of `draws` more, in ms. */
async function timeDrawings(
  render: Render,
  card: Card,
): Promise<{ first: number; p50: number; p95: number }> {
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
  return { first, p50: at(0.5), p95: at(0.95) };
}

export default async function shareImageBench(): Promise<void> {
  const render = shareImageRenderer(readShareImageAssets);
  const latin = await timeDrawings(
    render,
    openPoll(undefined, ['Ada Lovelace', 'Bea Ortiz', 'Cai Lun', 'Dee Okafor']),
  );
  // Right-to-left, Cyrillic, Greek, Chinese and emoji: one fallback font each (both weights where there are two).
  const scripts = await timeDrawings(
    render,
    openPoll('من هو أفضل لاعب في المباراة؟ Кто лучший?', ['מי השחקן', 'Γιώργος', '孙兴慜', 'The dance ⚽🎉']),
  );
  for (const [name, figures] of [
    ['share image 1200x630', latin],
    ['in other scripts', scripts],
  ] as const)
    console.log(
      `${name}: first ${figures.first.toFixed(0)} ms; next ${String(draws)}: p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms`,
    );
  await recordBenchResults('share-image', [
    {
      id: 'drawing-p50',
      what: "an open poll's share image, 1200 x 630: one drawing, median of 50",
      value: Number(latin.p50.toFixed(1)),
      unit: 'ms',
      target: { comparison: '<=', value: 100 },
      detail: `p95 ${latin.p95.toFixed(1)} ms; the first drawing ${Math.round(latin.first).toLocaleString('en')} ms`,
    },
    {
      id: 'other-scripts-p50',
      what: 'the same in Arabic, Hebrew, Cyrillic, Greek, Chinese and emoji',
      value: Number(scripts.p50.toFixed(1)),
      unit: 'ms',
      target: { comparison: '<=', value: 100 },
      detail: `p95 ${scripts.p95.toFixed(1)} ms; first ${Math.round(scripts.first).toLocaleString('en')} ms, fonts read`,
    },
  ]);
}
