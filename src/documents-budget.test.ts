// The project's Markdown stays short enough to read: its size outside the generated documents, the median sentence
// of its guides, and every relative link resolving to a file and heading that exist (src/dev/markdown-measure.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  brokenLinks,
  headingAnchor,
  markdownBudgetBytes,
  measureMarkdown,
  median,
  medianSentenceBudgetWords,
  sentenceLengths,
} from './dev/markdown-measure.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the documents fit their budget', () => {
  const measure = measureMarkdown(root);

  it(`total at most ${String(markdownBudgetBytes / 1000)} kB outside the generated documents`, () => {
    expect(measure.files.length).toBeGreaterThan(20);
    expect(measure.files.map(({ file }) => file)).not.toContain('docs/reference.md');
    expect(measure.totalBytes).toBeLessThanOrEqual(markdownBudgetBytes);
  });

  it(`have guides whose median sentence is under ${String(medianSentenceBudgetWords)} words`, () => {
    expect(measure.guidesMedianWords).toBeGreaterThan(0);
    expect(measure.guidesMedianWords).toBeLessThan(medianSentenceBudgetWords);
  });

  it('link only to files and headings that exist', () => {
    expect(brokenLinks(root)).toEqual([]);
  });
});

describe('the measure (the checks are not vacuous)', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'markdown-measure-'));
  afterAll(() => {
    rmSync(fixture, { recursive: true, force: true });
  });

  it('counts sentences of prose, not code, tables or link targets', () => {
    const text = [
      '# A heading is not a sentence',
      '',
      'One short sentence here. Another one, a [link](https://example.org/a/very/long/path) counted as its words.',
      '',
      '- A list item ends its sentence',
      '- and so does this one, with `inline code` as one word.',
      '',
      '| a table | is not prose either |',
      '| --- | --- |',
      '',
      '```sh',
      'npm ci && npm start # code is not prose',
      '```',
    ].join('\n');
    expect(sentenceLengths(text)).toEqual([4, 8, 6, 10]);
    expect(median([4, 8, 6, 10])).toBe(7);
  });

  it('finds a missing file and a missing heading, and lets good links pass', () => {
    mkdirSync(join(fixture, 'docs'), { recursive: true });
    writeFileSync(join(fixture, 'docs', 'reference.md'), '# Reference\n');
    writeFileSync(join(fixture, 'docs', 'configuration.md'), '# Configuration\n');
    writeFileSync(join(fixture, 'BENCHMARKS.md'), '# Benchmarks\n');
    writeFileSync(
      join(fixture, 'docs', 'guide.md'),
      "# Guide\n\n## The club's analytics\n\n## Workers (edge)\n",
    );
    writeFileSync(
      join(fixture, 'README.md'),
      [
        '[ok](docs/guide.md#the-clubs-analytics) [ok](docs/guide.md#workers-edge) [ok](docs/) [ok](#readme)',
        '[ok](https://example.org/x.md#nowhere) [bad](docs/missing.md) [bad](docs/guide.md#2026-11-21-run)',
        '# Readme',
      ].join('\n'),
    );
    expect(brokenLinks(fixture)).toEqual([
      'README.md: docs/missing.md',
      'README.md: docs/guide.md#2026-11-21-run',
    ]);
    expect(headingAnchor('`proxy.bench.ts`: the proxy, then figures')).toBe(
      'proxybenchts-the-proxy-then-figures',
    );
  });
});
