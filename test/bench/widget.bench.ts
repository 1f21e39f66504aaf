// Widget figures as a fan waits for them: a plain article page at a phone's width in Chromium, the network throttled to
// Fast 4G through the DevTools protocol, a cold cache, timed from navigation start; this build (with the one-line
// script tag and with the recommended snippet), the previous build, the two floors (inline JS, static markup) and, for
// one open poll, the peers a partner compares the card with (Typeform's embed loader, giscus: ./widget/peer-embeds.ts)
// side by side in the same run, alternating, with each case's ratio to its floors and when the code and the poll read
// it waited for arrived (what a card pays over its floor before it renders). Also the gzip size of the card's code. Two
// profiles, each its own run: desktop (the machine's CPU) and mobile (as Lighthouse judges a page: a CPU 4x slower, a
// 390 x 844 touch viewport), with the Total Blocking Time and the first tap's latency.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../browser/widget-stack.ts';
import { screenshotPath } from '../support/screenshots.ts';
import { startSandboxAndProxy } from '../support/stack.ts';
import { ensureWidgetBuilt } from '../support/vite-build.ts';
import { benchCases, snippets, type BenchCase, type PollChoice } from './widget/article-pages.ts';
import { choosePolls } from './widget/bench-polls.ts';
import { caseSlug, serveArticles, type BenchBuild } from './widget/article-server.ts';
import { previousCommit, previousWidgetDir } from './widget/baseline-build.ts';
import { giscusSnippet, peerAssets, servePeerBackends, typeformSnippet } from './widget/peer-embeds.ts';
import {
  benchProfiles,
  fast4g,
  measurePage,
  type BenchProfile,
  type PageFigures,
} from './widget/measure-page.ts';
import { ssrSnippet } from './widget/ssr-snippet.ts';
import { widgetFiguresOfRecord } from './widget/figures-of-record.ts';
import { recordBenchResults } from '../../src/dev/bench-results.ts';
import { hydrateFileName } from '../../widget/ssr/hydrate-file-name.ts';
import { firstPaintBudgetBytes, firstPaintBytes } from '../../widget/build/first-paint-bytes.ts';

const runs = Number(process.env.WIDGET_BENCH_RUNS ?? 5);
/** `WIDGET_BENCH_CASES=open card,ten cards`: only these cases (a focused comparison); default all. */
const cases = benchCases.filter((each) => process.env.WIDGET_BENCH_CASES?.split(',').includes(each) ?? true);
/** `WIDGET_BENCH_PROFILES=mobile`: only that profile; default both, desktop first. */
const profiles = Object.values(benchProfiles).filter(
  (profile) => process.env.WIDGET_BENCH_PROFILES?.split(',').includes(profile.name) ?? true,
);
const currentDir = fileURLToPath(new URL('../../dist/widget/', import.meta.url));

const gzipBytes = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length;

/** Prints the gzip sizes of this build's and the previous build's code; returns this build's script-tag card's. */
function printSizes(previousDir: string): number {
  const cardBytes = (dir: string) => {
    const files = (
      JSON.parse(readFileSync(`${dir}../widget-files.json`, 'utf8')) as { scriptTagCard: string[] }
    ).scriptTagCard;
    return { files, bytes: firstPaintBytes(dir, files) };
  };
  const current = cardBytes(currentDir);
  const previous = cardBytes(previousDir);
  const sizes = ({ bytes }: ReturnType<typeof cardBytes>) =>
    `${bytes.hashesBlanked} B with chunk hashes blanked, ${bytes.served} B as served`;
  console.log(`code a script-tag card with an open poll needs, gzip -9 (budget ${firstPaintBudgetBytes} B):`);
  console.log(`  this build: ${sizes(current)} (${current.files.join(' + ')})`);
  console.log(`  ${previousCommit}: ${sizes(previous)} (${previous.files.join(' + ')})`);
  console.log(
    `  fan-polls.js: this build ${gzipBytes(currentDir + 'fan-polls.js')} B, ${previousCommit} ${gzipBytes(previousDir + 'fan-polls.js')} B`,
  );
  console.log(
    `  a card drawn by the proxy paints from fan-polls.js and its markup, and takes clicks once ` +
      `${hydrateFileName} (${gzipBytes(currentDir + hydrateFileName)} B) has run`,
  );
  return current.bytes.hashesBlanked;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function summary(figures: readonly PageFigures[]): Record<string, string> {
  const ms = (pick: (f: PageFigures) => number | undefined) => {
    const values = figures.map(pick).filter((value): value is number => value !== undefined);
    return values.length === 0 ? '—' : median(values).toFixed(0);
  };
  return {
    data: ms((f) => f.dataMs),
    'code done': ms((f) => f.codeDoneMs),
    'read done': ms((f) => f.readDoneMs),
    'last card data': ms((f) => f.lastDataMs),
    cards: ms((f) => f.cardsWithData),
    interactive: ms((f) => f.interactiveMs),
    TBT: ms((f) => f.totalBlockingMs),
    'first tap': ms((f) => f.firstTapMs),
    'RT data': ms((f) => f.roundTripsToData),
    'RT interactive': ms((f) => f.roundTripsToInteractive),
    'code kB': (median(figures.map((f) => f.codeBytes)) / 1000).toFixed(1),
    'total kB': (median(figures.map((f) => f.totalBytes)) / 1000).toFixed(1),
    requests: ms((f) => f.requests),
    CLS: median(figures.map((f) => f.layoutShift)).toFixed(3),
    'CLS max': Math.max(...figures.map((f) => f.layoutShift)).toFixed(3),
    'card px': ms((f) => f.cardHeight),
  };
}

export default async function widgetBench(): Promise<void> {
  ensureWidgetBuilt();
  const builds: BenchBuild[] = [
    { name: 'recommended', widgetDir: currentDir, snippet: snippets.recommended },
    { name: 'recommended-data', widgetDir: currentDir, snippet: snippets.recommendedData },
    { name: 'recommended-proxy', widgetDir: currentDir, snippet: snippets.recommendedFromProxy },
    { name: 'current', widgetDir: currentDir, snippet: snippets.current },
    { name: 'previous', widgetDir: previousWidgetDir(), snippet: snippets.current },
    { name: 'inline', widgetDir: currentDir, snippet: snippets.inline },
    { name: 'static', widgetDir: currentDir, snippet: snippets.static },
    { name: 'typeform', widgetDir: currentDir, snippet: typeformSnippet(() => peers.url) },
    { name: 'giscus', widgetDir: currentDir, snippet: giscusSnippet(() => peers.url) },
  ];
  const ssr = ssrSnippet();
  builds.push({ name: 'ssr', widgetDir: currentDir, snippet: ssr.snippet });
  /** Peers embed one open poll: they run in that case only. */
  const isPeer = (build: BenchBuild) => build.name === 'typeform' || build.name === 'giscus';
  /** Which builds run in a case: peers in the open card's; the page-language snippet where it differs (one card). */
  const runsIn = (build: BenchBuild, benchCase: BenchCase) =>
    isPeer(build)
      ? benchCase === 'open card'
      : build.name !== 'recommended-data' || benchCase === 'open card' || benchCase === 'read-only card';
  const scriptTagCardBytes = printSizes(builds.find((build) => build.name === 'previous')!.widgetDir);
  const label: Record<string, string> = {
    recommended: 'this build, recommended snippet',
    'recommended-data': 'this build, recommended, page language',
    'recommended-proxy': 'this build, recommended, every file from the proxy (no CDN)',
    current: 'this build, one-line script tag',
    previous: `${previousCommit}, one-line script tag`,
    inline: 'inline-JS floor',
    static: 'static floor',
    typeform: 'Typeform embed loader (@typeform/embed 6.1.1)',
    giscus: 'giscus (giscus 1.6.0)',
    ssr: 'this build, server-rendered (fan-polls/ssr)',
  };

  // The pages need the proxy's URL and the polls, known once the proxy (which must allow the pages' origin) runs.
  const known: { proxyUrl: string; polls?: PollChoice } = { proxyUrl: '' };
  const peers = await servePeerBackends((id) => known.polls?.byId.get(id));
  const articles = await serveArticles(
    builds,
    () => known.proxyUrl,
    () => known.polls!,
    await peerAssets(),
    currentDir,
  );
  const stack = await startSandboxAndProxy({
    sandbox: { simulate: false },
    proxy: { env: { FAN_POLLS_ALLOWED_ORIGINS: articles.url } },
  });
  known.proxyUrl = stack.proxy.url;
  known.polls = await choosePolls(known.proxyUrl);
  await ssr.render(known.proxyUrl, known.polls);
  const browser = await launchChromium();
  const results = new Map<string, PageFigures[]>();
  try {
    for (const profile of profiles)
      for (let run = 0; run < runs; run += 1)
        for (const benchCase of cases)
          // Alternating builds, so that load from other processes on the machine hits both alike.
          for (const build of run % 2 === 0 ? builds : [...builds].reverse()) {
            if (!runsIn(build, benchCase)) continue;
            const figures = await measurePage(
              browser,
              `${articles.url}/${build.name}/${caseSlug(benchCase)}.html`,
              {
                banner: (benchCase === 'iframe banner' && !build.snippet.floor) || isPeer(build),
                interactive: benchCase === 'open card',
              },
              profile,
              run === 0
                ? screenshotPath(`bench-${profile.name}-${build.name}-${caseSlug(benchCase)}.png`)
                : undefined,
            );
            const key = `${profile.name}|${benchCase}|${build.name}`;
            results.set(key, [...(results.get(key) ?? []), figures]);
          }
  } finally {
    await browser.close();
    await stack.close();
    await articles.close();
    await peers.close();
  }
  for (const profile of profiles) printProfile(profile, results, builds, label, runsIn);
  await recordBenchResults(
    'widget',
    profiles.flatMap((profile) =>
      widgetFiguresOfRecord(profile.name, profileResults(results, profile), scriptTagCardBytes),
    ),
  );
}

/** One profile's figures, by `<case>|<build>`. */
function profileResults(
  all: ReadonlyMap<string, PageFigures[]>,
  profile: BenchProfile,
): Map<string, PageFigures[]> {
  return new Map(
    [...all]
      .filter(([key]) => key.startsWith(`${profile.name}|`))
      .map(([key, figures]) => [key.slice(profile.name.length + 1), figures] as const),
  );
}

/** One profile's tables: every case and build, with its ratios to the floors of the same run. */
function printProfile(
  profile: BenchProfile,
  all: ReadonlyMap<string, PageFigures[]>,
  builds: readonly BenchBuild[],
  label: Readonly<Record<string, string>>,
  runsIn: (build: BenchBuild, benchCase: BenchCase) => boolean,
): void {
  const results = profileResults(all, profile);
  const { width, height } = profile.viewport;
  console.log(
    `\n${profile.name} profile: Chromium, ${width}x${height}${profile.touch ? ' touch' : ''}` +
      `${profile.cpuSlowdown > 1 ? `, CPU ${profile.cpuSlowdown}x slower` : ''}, Fast 4G (${fast4g.latency} ms RTT, ` +
      `${(fast4g.downloadThroughput * 8) / 1e6} Mbit/s down, ${(fast4g.uploadThroughput * 8) / 1e3} kbit/s up) ` +
      `through CDP, cold cache, medians of ${runs} runs; ms from navigation start`,
  );
  // Each case's time to data over its floors' in the same run (a banner over one card's floors).
  const dataMedian = (key: string) => median((results.get(key) ?? []).map((f) => f.dataMs));
  const tapMedian = (key: string) =>
    median((results.get(key) ?? []).flatMap((f) => (f.interactiveMs === undefined ? [] : [f.interactiveMs])));
  const blockingMedian = (key: string) => median((results.get(key) ?? []).map((f) => f.totalBlockingMs));
  const rows = cases.flatMap((benchCase: BenchCase) =>
    builds
      .filter((build) => runsIn(build, benchCase))
      .map((build) => {
        const ms = dataMedian(`${benchCase}|${build.name}`);
        return {
          case: benchCase,
          build: label[build.name],
          'x inline': (ms / dataMedian(`${benchCase}|inline`)).toFixed(2),
          'x static': (ms / dataMedian(`${benchCase}|static`)).toFixed(2),
          // When a tap works, over the inline-JS floor's; the Total Blocking Time over the floor's.
          'tap x inline':
            benchCase === 'open card'
              ? (tapMedian(`${benchCase}|${build.name}`) / tapMedian(`${benchCase}|inline`)).toFixed(2)
              : '—',
          'TBT - inline': (
            blockingMedian(`${benchCase}|${build.name}`) - blockingMedian(`${benchCase}|inline`)
          ).toFixed(0),
          ...summary(results.get(`${benchCase}|${build.name}`) ?? []),
        };
      }),
  );
  console.table(rows);
  // A banner's time to data above is its card's ready event (after its code and read); its frame may show the poll
  // earlier (a frame page the proxy drew: src/proxy/frame-page-render.ts).
  const framePolls = builds.flatMap((build) => {
    const figures = (results.get(`iframe banner|${build.name}`) ?? []).filter(
      (f) => f.framePollMs !== undefined,
    );
    if (figures.length === 0) return [];
    const ms = median(figures.map((f) => f.framePollMs!));
    return [
      {
        build: label[build.name],
        'poll on screen in the frame': ms.toFixed(0),
        'x inline': (ms / dataMedian('iframe banner|inline')).toFixed(2),
        'RT poll': median(figures.map((f) => f.roundTripsToFramePoll!)).toFixed(0),
      },
    ];
  });
  if (framePolls.length > 0) {
    console.log('\niframe banner: when its frame first shows the poll (medians):');
    console.table(framePolls);
  }
}
