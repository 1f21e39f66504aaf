import type { ShareImageRenderer } from './share-image.ts';
import { fallbackFontsFor, type FallbackFont } from './fallback-fonts.ts';
import { isRightToLeft, leftToRightOrder, rightToLeftUnits } from './right-to-left.ts';
import { shareImageMaxAnswers, type ShareAnswer, type ShareCard } from './share-card.ts';
import { shareImageSize } from '../../contracts/share-contract.ts';

/**
 * What the drawing needs and reads from its runtime (no network): the two WebAssembly modules, as bytes or compiled
 * (satori's layout engine, `satori/layout.wasm`; resvg, `@resvg/resvg-wasm/index_bg.wasm`), and the fonts (`.woff` or
 * `.ttf`: satori takes no `.woff2`). Given, not imported: a Workers runtime compiles no WebAssembly from bytes.
 */
export interface ShareImageAssets {
  readonly layoutWasm: Uint8Array<ArrayBuffer> | WebAssembly.Module;
  readonly wasm: Uint8Array<ArrayBuffer> | WebAssembly.Module;
  readonly fonts: readonly { readonly data: ArrayBuffer; readonly weight: 400 | 700 }[];
  /** The fonts for other scripts and emoji this runtime has (`fallback-fonts.ts`), read only when text needs one. */
  readonly fallbackFonts: readonly FallbackFont[];
  readFallbackFont(file: string): Promise<ArrayBuffer>;
}

/**
 * The card's default theme (`widget/fan-poll/fan-poll.styles.ts`, light): the image is drawn in the club's colours
 * as the card shows them by default. Public for the test that finds the accent in the image's pixels.
 */
export const shareImageTheme = {
  background: '#ffffff',
  text: '#14171f',
  muted: '#596070',
  border: '#dde1e8',
  track: '#eef0f4',
  accent: '#1d4ed8',
  accentText: '#ffffff',
} as const;

const fontFamily = 'Inter';
const theme = shareImageTheme;

/** A satori element: React's element shape without React. */
interface Box {
  readonly type: 'div';
  readonly props: { readonly style: Readonly<Record<string, string | number>>; readonly children?: unknown };
}

const box = (style: Box['props']['style'], children?: unknown): Box => ({
  type: 'div',
  props: children === undefined ? { style } : { style, children },
});

/** One line of text, cut with an ellipsis where it would overflow its box. */
const oneLine = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/** What a box of one text sets that a box of words does not. */
const textOnly = new Set(['whiteSpace', 'textOverflow', 'lineClamp', 'wordBreak']);

/**
 * `text` in a box of `style`. Right-to-left text is laid out from the right, a box per word (`right-to-left.ts`),
 * wrapped onto the next line where `wrap`, else cut at the left edge (no ellipsis: it would sit on the wrong side).
 * Right-to-left words within left-to-right text have their order turned.
 */
function textBox(style: Box['props']['style'], text: string, wrap = false): Box {
  if (!isRightToLeft(text)) return box(style, leftToRightOrder(text));
  const kept = Object.fromEntries(
    Object.entries(style).filter(([key]) => !textOnly.has(key)),
  ) as Box['props']['style'];
  const gap = Math.round(Number(style.fontSize ?? 28) * 0.28);
  return box(
    {
      ...kept,
      display: 'flex',
      flexDirection: 'row-reverse',
      flexWrap: wrap ? 'wrap' : 'nowrap',
      columnGap: gap,
      overflow: 'hidden',
    },
    rightToLeftUnits(text).map((unit) => box({ flexShrink: 0, whiteSpace: 'nowrap' }, unit)),
  );
}

/**
 * The share image drawn with satori (markup to SVG) and resvg-wasm (SVG to PNG), both loaded on the first drawing,
 * resvg's WebAssembly started once per process. `loadAssets` gives the WebAssembly and the fonts (Node reads them from
 * the packages, `src/node/share-image-assets.ts`; a Worker imports its uploaded modules,
 * `src/edge/share-image-assets.ts`).
 */
export function shareImageRenderer(loadAssets: () => Promise<ShareImageAssets>): ShareImageRenderer {
  let ready: Promise<Drawing> | undefined;
  return async (card) => {
    if (ready === undefined) {
      ready = startDrawing(loadAssets);
      // A failed start (a missing file) is tried again by the next drawing.
      ready.catch(() => {
        ready = undefined;
      });
    }
    const drawing = await ready;
    return drawing(card);
  };
}

type Drawing = (card: ShareCard) => Promise<Uint8Array<ArrayBuffer>>;

/** Each WebAssembly module starts once per process (a second `initWasm` throws), whoever asks. */
let started: Promise<void> | undefined;

async function startDrawing(loadAssets: () => Promise<ShareImageAssets>): Promise<Drawing> {
  const [assets, { default: satori, init }, resvg] = await Promise.all([
    loadAssets(),
    import('satori/standalone'),
    import('@resvg/resvg-wasm'),
  ]);
  started ??= Promise.all([init(assets.layoutWasm), resvg.initWasm(assets.wasm)]).then(() => undefined);
  await started;
  const fonts = assets.fonts.map((font) => ({
    name: fontFamily,
    data: font.data,
    weight: font.weight,
    style: 'normal' as const,
  }));
  const loadAdditionalAsset = fallbackLoader(assets);
  return async (card) => {
    const markup = shareImageMarkup(card) as unknown as Parameters<typeof satori>[0];
    const svg = await satori(markup, { ...shareImageSize, fonts, loadAdditionalAsset });
    const rendered = new resvg.Resvg(svg, { fitTo: { mode: 'original' } }).render();
    const png = rendered.asPng();
    rendered.free();
    return new Uint8Array(png);
  };
}

interface LoadedFont {
  readonly name: string;
  readonly data: ArrayBuffer;
  readonly weight: 400 | 700;
  readonly style: 'normal';
}

/**
 * satori's hook for text its fonts do not draw (Arabic, Hebrew, Cyrillic, Greek, CJK, emoji): the fallback files with
 * those characters, each read once per process. A Latin drawing never calls it. Text no file covers draws as a box.
 */
function fallbackLoader(
  assets: ShareImageAssets,
): (languageCode: string, segment: string) => Promise<LoadedFont[]> {
  const read = new Map<string, Promise<LoadedFont | undefined>>();
  const load = (font: FallbackFont): Promise<LoadedFont | undefined> => {
    let loading = read.get(font.file);
    if (loading === undefined) {
      loading = assets.readFallbackFont(font.file).then(
        (data) => ({ name: font.name, data, weight: font.weight, style: 'normal' as const }),
        (error: unknown) => {
          // A file missing from this runtime: the text draws as boxes, and the next drawing tries again.
          read.delete(font.file);
          console.error(`Share image: the font ${font.file} could not be read.`, error);
          return undefined;
        },
      );
      read.set(font.file, loading);
    }
    return loading;
  };
  return async (_languageCode, segment) => {
    const loaded = await Promise.all(fallbackFontsFor(segment, assets.fallbackFonts).map(load));
    return loaded.filter((font) => font !== undefined);
  };
}

/** Space around the content; the accent stripe on top. */
const margin = { top: 40, side: 64, bottom: 36, stripe: 14 } as const;

/** The image's markup: the club's badge and name, the phase, the question, the answers (with bars where shown). */
function shareImageMarkup(card: ShareCard): Box {
  const many = card.answers.length > shareImageMaxAnswers;
  const shown = card.answers.slice(0, many ? shareImageMaxAnswers - 1 : shareImageMaxAnswers);
  const rest = card.answers.length - shown.length;
  // Sizes in pixels, never percentages of an unsized box: satori lays out with Yoga, content-box. Every box is sized
  // to fit (two lines of question, one line an answer, four answers at most), with no `overflow: hidden` but on the
  // one-line texts: resvg draws each clipped box as a layer of its own (measured: 700 ms a drawing with five more).
  const content = {
    width: shareImageSize.width - 2 * margin.side,
    height: shareImageSize.height - margin.stripe - margin.top - margin.bottom,
  };
  return box(
    {
      width: shareImageSize.width,
      height: shareImageSize.height,
      display: 'flex',
      flexDirection: 'column',
      background: theme.background,
      color: theme.text,
      fontFamily,
    },
    [
      box({ width: shareImageSize.width, height: margin.stripe, flexShrink: 0, background: theme.accent }),
      box(
        {
          display: 'flex',
          flexDirection: 'column',
          ...content,
          margin: `${String(margin.top)}px ${String(margin.side)}px ${String(margin.bottom)}px`,
        },
        [
          header(card, content.width),
          textBox(
            {
              display: 'block',
              width: content.width,
              marginTop: 28,
              fontSize: 52,
              fontWeight: 700,
              lineHeight: 1.15,
              lineClamp: 2,
              wordBreak: 'break-word',
              maxHeight: 120,
              flexShrink: 0,
            },
            card.question,
            true,
          ),
          box(
            {
              display: 'flex',
              flexDirection: 'column',
              width: content.width,
              marginTop: 26,
            },
            [
              ...shown.map((answer) =>
                card.resultsShown
                  ? answerWithShare(answer, content.width)
                  : answerOnly(answer, content.width),
              ),
              ...(rest > 0
                ? [box({ fontSize: 24, color: theme.muted }, `+ ${String(rest)} more answers`)]
                : []),
            ],
          ),
        ],
      ),
    ],
  );
}

function header(card: ShareCard, width: number): Box {
  return box({ display: 'flex', alignItems: 'center', width, height: 72, flexShrink: 0 }, [
    box(
      {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 72,
        height: 72,
        flexShrink: 0,
        borderRadius: 36,
        background: theme.accent,
        color: theme.accentText,
        fontSize: 28,
        fontWeight: 700,
      },
      card.initials,
    ),
    box(
      { ...oneLine, flexGrow: 1, flexShrink: 1, marginLeft: 20, fontSize: 30, color: theme.muted },
      card.partnerName,
    ),
    box(
      {
        flexShrink: 0,
        marginLeft: 20,
        padding: '8px 22px',
        borderRadius: 999,
        background: theme.accent,
        color: theme.accentText,
        fontSize: 26,
        fontWeight: 700,
      },
      card.phaseText,
    ),
  ]);
}

function answerWithShare(answer: ShareAnswer, width: number): Box {
  const percentage = Math.min(100, Math.max(0, answer.percentage ?? 0));
  // A right-to-left answer reads from the right: its share on the left, its bar filled from the right.
  const rightToLeft = isRightToLeft(answer.text);
  const row = rightToLeft ? 'row-reverse' : 'row';
  return box({ display: 'flex', flexDirection: 'column', width, marginBottom: 18, flexShrink: 0 }, [
    box(
      {
        display: 'flex',
        flexDirection: row,
        alignItems: 'center',
        width,
        fontSize: 28,
        fontWeight: answer.isLeading ? 700 : 400,
      },
      [
        textBox({ ...oneLine, flexGrow: 1, flexShrink: 1 }, answer.text),
        box(
          { flexShrink: 0, [rightToLeft ? 'marginRight' : 'marginLeft']: 16, fontWeight: 700 },
          `${String(percentage)}%`,
        ),
      ],
    ),
    box(
      {
        display: 'flex',
        flexDirection: row,
        width,
        marginTop: 8,
        height: 16,
        borderRadius: 8,
        background: theme.track,
      },
      [
        box({
          width: Math.round((width * percentage) / 100),
          height: 16,
          borderRadius: 8,
          background: theme.accent,
        }),
      ],
    ),
  ]);
}

function answerOnly(answer: ShareAnswer, width: number): Box {
  return textBox(
    {
      ...oneLine,
      // Content-box: the padding and the border are outside the width.
      width: width - 2 * (20 + 2),
      flexShrink: 0,
      marginBottom: 14,
      padding: '8px 20px',
      border: `2px solid ${theme.border}`,
      borderRadius: 12,
      fontSize: 28,
    },
    answer.text,
  );
}
