// The widget bench's figures of record (BENCHMARKS.md), from one profile's medians: each case's time over its floor
// in the same run, the peers, the server-drawn card, the phone's taps and blocking time, and the card's code size.
import type { Figure, Target } from '../../../src/dev/bench-results.ts';
import { firstPaintBudgetBytes } from '../../../widget/build/first-paint-bytes.ts';
import { benchCases } from './article-pages.ts';
import type { PageFigures } from './measure-page.ts';

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const ratio = (value: number): number => Number(value.toFixed(2));
const atMost = (value: number): Target => ({ comparison: '<=', value });

/**
 * `results` holds one profile's figures by `<case>|<build>`. A figure whose case or build did not run is left out.
 */
export function widgetFiguresOfRecord(
  profile: string,
  results: ReadonlyMap<string, readonly PageFigures[]>,
  scriptTagCardBytes: number,
): Figure[] {
  const of = (key: string, pick: (figures: PageFigures) => number | undefined) =>
    median((results.get(key) ?? []).flatMap((figures) => pick(figures) ?? []));
  const data = (key: string) => of(key, (f) => f.dataMs);
  const tap = (key: string) => of(key, (f) => f.interactiveMs);
  const blocking = (key: string) => of(key, (f) => f.totalBlockingMs);
  const frame = (key: string) => of(key, (f) => f.framePollMs);
  const roundTrips = (
    key: string,
    pick: (f: PageFigures) => number | undefined = (f) => f.roundTripsToData,
  ) => {
    const count = of(key, pick);
    return `${String(count)} round trip${count === 1 ? '' : 's'}`;
  };
  const overFloor = (benchCase: string, build: string) =>
    ratio(data(`${benchCase}|${build}`) / data(`${benchCase}|inline`));
  const peer = (name: string) => overFloor('open card', name);
  const fasterPeer = Math.min(data('open card|typeform'), data('open card|giscus'));
  const peers = `Typeform ${String(peer('typeform'))}x the floor, giscus ${String(peer('giscus'))}x`;
  const phone = profile === 'mobile' ? 'phone: ' : '';
  const id = (name: string) => (profile === 'mobile' ? `mobile-${name}` : name);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  /** A difference over the floor: `+121 ms`, `−4 ms`. */
  const overMs = (value: number) => `${value < 0 ? '−' : '+'}${ms(Math.abs(value))}`;

  const figures: Figure[] = [
    {
      id: id('open-card-over-floor'),
      what: `${phone}open card, recommended snippet: poll on screen, over the inline-JS floor`,
      value: overFloor('open card', 'recommended'),
      unit: 'x',
      detail: `${ms(data('open card|recommended'))}, ${roundTrips('open card|recommended')}`,
      ...(profile === 'mobile' ? {} : { target: atMost(1.3) }),
    },
    {
      id: id('open-card-over-peer'),
      what: `${phone}open card, recommended snippet: poll on screen, over the faster peer`,
      value: ratio(data('open card|recommended') / fasterPeer),
      unit: 'x',
      detail: peers,
      target: { comparison: '<', value: 1 },
    },
  ];
  if (profile === 'mobile') {
    const tapOverFloor = (build: string) => ratio(tap(`open card|${build}`) / tap('open card|inline'));
    const blockingOverFloor = (build: string) =>
      blocking(`open card|${build}`) - blocking('open card|inline');
    figures.push(
      {
        id: id('tap-over-floor'),
        what: "phone: open card, a tap works, over the inline-JS floor's working button",
        value: tapOverFloor('recommended'),
        unit: 'x',
        detail: `${ms(tap('open card|recommended'))}; floor ${ms(tap('open card|inline'))}`,
        target: atMost(1.25),
      },
      {
        id: id('blocking-over-floor'),
        what: "phone: open card, Total Blocking Time over the floor's",
        value: Math.round(blockingOverFloor('recommended')),
        unit: 'ms',
        detail: `floor ${ms(blocking('open card|inline'))}; Typeform ${overMs(blockingOverFloor('typeform'))}, giscus ${overMs(blockingOverFloor('giscus'))}`,
        target: atMost(50),
      },
      {
        id: id('first-tap'),
        what: "phone: open card, the first tap's latency (Event Timing, as INP counts it)",
        value: Math.round(of('open card|recommended', (f) => f.firstTapMs)),
        unit: 'ms',
        detail: `floor ${ms(of('open card|inline', (f) => f.firstTapMs))}`,
      },
      {
        id: id('page-language-tap-over-floor'),
        what: 'phone: page-language snippet, a tap works, over the inline-JS floor',
        value: tapOverFloor('recommended-data'),
        unit: 'x',
        detail: `TBT ${overMs(blockingOverFloor('recommended-data'))}; one-line tag ${String(tapOverFloor('current'))}x, TBT ${overMs(blockingOverFloor('current'))}`,
      },
      {
        id: id('ssr-tap-over-floor'),
        what: 'phone: server-rendered card, a tap works, over the inline-JS floor',
        value: tapOverFloor('ssr'),
        unit: 'x',
        detail: `${ms(tap('open card|ssr'))}, TBT ${overMs(blockingOverFloor('ssr'))}; poll on screen ${String(ratio(data('open card|ssr') / data('open card|static')))}x the static floor`,
      },
    );
  } else {
    const ssrOverStatic = ['open card', 'read-only card', 'ten cards'].map((benchCase) => ({
      benchCase,
      value: ratio(data(`${benchCase}|ssr`) / data(`${benchCase}|static`)),
    }));
    const slowest = ssrOverStatic.reduce((a, b) => (b.value > a.value ? b : a));
    // The slowest case and every case's shift only from a run of every case (else they are left out).
    const everyCase = benchCases.every((benchCase) => results.has(`${benchCase}|inline`));
    const shifts = [...results]
      .filter(([key]) => everyCase && !/\|(typeform|giscus|inline|static)$/.test(key))
      .flatMap(([, figures]) => figures.map((f) => f.layoutShift));
    figures.push(
      {
        id: 'read-only-card-over-floor',
        what: 'read-only card, recommended snippet, over the inline-JS floor',
        value: overFloor('read-only card', 'recommended'),
        unit: 'x',
        detail: `${ms(data('read-only card|recommended'))}, ${roundTrips('read-only card|recommended')}`,
        target: atMost(1.3),
      },
      {
        id: 'ten-cards-over-floor',
        what: 'ten cards, recommended snippet, over the inline-JS floor',
        value: overFloor('ten cards', 'recommended'),
        unit: 'x',
        detail: ms(data('ten cards|recommended')),
        target: atMost(1.4),
      },
      {
        id: 'banner-over-floor',
        what: 'iframe banner: poll on screen in its frame, over the inline-JS floor',
        value: ratio(frame('iframe banner|recommended') / data('iframe banner|inline')),
        unit: 'x',
        detail: `${ms(frame('iframe banner|recommended'))}, ${roundTrips('iframe banner|recommended', (f) => f.roundTripsToFramePoll)}`,
        target: atMost(1.6),
      },
      {
        id: 'ssr-over-static-floor',
        what: 'server-rendered card over the static floor, the slowest case',
        value: everyCase ? slowest.value : Number.NaN,
        unit: 'x',
        detail: [
          slowest.benchCase,
          ...ssrOverStatic
            .filter((each) => each !== slowest)
            .map(({ benchCase, value }) => `${benchCase} ${String(value)}x`),
        ].join('; '),
        target: atMost(1.15),
      },
      {
        id: 'layout-shift',
        what: 'layout shift, every case',
        value: Number(Math.max(...shifts).toFixed(3)),
        unit: '',
        target: { comparison: '<', value: 0.02 },
      },
      {
        id: 'proxy-files-open-card-over-floor',
        what: 'every file from the proxy, no CDN (Brotli): open card on screen, over the inline-JS floor',
        value: overFloor('open card', 'recommended-proxy'),
        unit: 'x',
        detail: ms(data('open card|recommended-proxy')),
        target: atMost(1.3),
      },
      {
        id: 'proxy-files-open-card-tap-over-floor',
        what: "every file from the proxy: open card taking a tap, over the inline-JS floor's poll on screen",
        value: ratio(tap('open card|recommended-proxy') / data('open card|inline')),
        unit: 'x',
        detail: ms(tap('open card|recommended-proxy')),
        target: atMost(1.6),
      },
      {
        id: 'proxy-files-banner-over-floor',
        what: "every file from the proxy: the banner's poll on screen, over the inline-JS floor",
        value: ratio(frame('iframe banner|recommended-proxy') / data('iframe banner|inline')),
        unit: 'x',
        detail: ms(frame('iframe banner|recommended-proxy')),
        target: atMost(1.6),
      },
      {
        id: 'drawn-card-clicks-over-page-language',
        what: "server-drawn card takes clicks, over the page-language card's time",
        value: ratio(tap('open card|ssr') / tap('open card|recommended-data')),
        unit: 'x',
        detail: `${ms(tap('open card|ssr'))}; page-language ${ms(tap('open card|recommended-data'))}, proxy-drawn ${ms(tap('open card|recommended'))}`,
        target: atMost(1),
      },
      {
        id: 'script-tag-card-gzip',
        what: 'code of an open script-tag card, gzip, hashes blanked',
        value: scriptTagCardBytes,
        unit: 'B',
        detail: '`npm test` checks it',
        target: atMost(firstPaintBudgetBytes),
      },
    );
  }
  return figures.filter((figure) => Number.isFinite(figure.value));
}
