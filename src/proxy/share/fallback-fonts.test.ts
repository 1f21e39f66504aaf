import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { readShareImageAssets } from '../../node/share-image-assets.ts';
import { answerFixture, fixtureTimes, pollFixture } from '../../polls/poll-fixture.ts';
import { fallbackFontsFor, parseUnicodeRange, scriptFallbackFonts } from './fallback-fonts.ts';
import { shareCardOf } from './share-card.ts';
import { shareImageRenderer, type ShareImageAssets } from './share-image-drawing.ts';
import { wideFallbackFonts } from './wide-fallback-fonts.ts';

const every = [...scriptFallbackFonts, ...wideFallbackFonts];
const files = (text: string) => fallbackFontsFor(text, every).map((font) => font.file.split('/').pop());

describe('the share image’s fallback fonts', () => {
  it('reads a unicode-range', () => {
    expect(parseUnicodeRange('U+0600-06FF,U+200C')).toEqual([
      [0x600, 0x6ff],
      [0x200c, 0x200c],
    ]);
  });

  it('picks the files with the text’s characters, both weights, and none for Latin', () => {
    expect(files('Who wins? Čech – 2:1 “Ñ”')).toEqual([]);
    expect(files('Кто – лучший?')).toEqual([
      'inter-cyrillic-400-normal.woff',
      'inter-cyrillic-700-normal.woff',
    ]);
    expect(files('مرحبا')).toEqual([
      'noto-sans-arabic-arabic-400-normal.woff',
      'noto-sans-arabic-arabic-700-normal.woff',
    ]);
    expect(files('שלום')).toEqual([
      'noto-sans-hebrew-hebrew-400-normal.woff',
      'noto-sans-hebrew-hebrew-700-normal.woff',
    ]);
    expect(files('Ω')).toEqual(['inter-greek-400-normal.woff', 'inter-greek-700-normal.woff']);
    expect(files('谁')).toHaveLength(1);
    expect(files('최고의').every((file) => file?.startsWith('noto-sans-kr-'))).toBe(true);
    expect(files('⚽').some((file) => file?.startsWith('noto-emoji-'))).toBe(true);
  });

  it('reads no fallback for a Latin drawing, and draws other scripts with them (no boxes)', async () => {
    const assets = await readShareImageAssets();
    const read: string[] = [];
    const counting: ShareImageAssets = {
      ...assets,
      readFallbackFont: (file) => {
        read.push(file);
        return assets.readFallbackFont(file);
      },
    };
    const withFallbacks = shareImageRenderer(() => Promise.resolve(counting));
    const without = shareImageRenderer(() => Promise.resolve({ ...assets, fallbackFonts: [] }));
    const card = (question: string, answer = 'Ада') =>
      shareCardOf(
        pollFixture({ question, answers: [answerFixture({ id: 'a1', answer })] }),
        fixtureTimes.whileOpen,
        undefined,
      );
    await withFallbacks(card('Who is the player of the match? Čech – 2:1', 'Ada'));
    expect(read).toEqual([]);
    const question = 'Кто лучший игрок матча? من هو أفضل لاعب';
    const [drawn, boxed] = await Promise.all([withFallbacks(card(question)), without(card(question))]);
    expect(read.length).toBeGreaterThan(0);
    const pixels = (bytes: Uint8Array) => PNG.sync.read(Buffer.from(bytes)).data;
    expect(pixels(drawn).equals(pixels(boxed))).toBe(false);
  }, 30_000);
});
