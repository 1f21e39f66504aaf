// The project's documents say what is, for a reader who never saw its history: none names an issue number (the
// repository holds no issues), a session or round of work, or a temporary folder. A reference to another project's
// issue (`nodejs/node#57736`) is a fact about that project, and allowed. History goes in git and in the dated
// records of docs/decisions/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Folders that hold no document of the project's own. */
const skipped = new Set(['node_modules', 'dist', 'test-results', '.git']);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory())
      return skipped.has(entry.name) || entry.name.startsWith('.') ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** What a document of what is never says, each with the reason a failure prints. */
const history: readonly [RegExp, string][] = [
  [/\bissues? #?\d+/i, 'an issue number'],
  [/(?<![\w./-])#\d{1,5}\b/, 'an issue number'],
  [
    /\b(?:this|last|previous|earlier|next|work|review|coding) session\b|\bsessions? (?:\d+|of work)\b/i,
    'a session of work',
  ],
  [/\brounds? of (?:work|review)\b/i, 'a round of work'],
  [/(?:^|[\s`('"=])\/tmp\b|<tmp>|\$TMPDIR|\bmktemp\b/, 'a temporary folder'],
];

/** Every line of `text` that says one of `history`'s things, as `line: why: text`. */
function historyIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      history
        .filter(([pattern]) => pattern.test(line))
        .map(([, why]) => `${String(index + 1)}: ${why}: ${line.trim()}`),
    );
}

describe('the documents say what is', () => {
  it('name no issue number, session or round of work, or temporary folder', () => {
    const files = markdownFiles(root);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      historyIn(readFileSync(file, 'utf8')).map((hit) => `${relative(root, file)}:${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('finds each of them, and lets a fan’s session and another project’s issue pass (the check is not vacuous)', () => {
    expect(
      [
        'Fixed in issue 37.',
        'See #12 for the discussion.',
        'As measured in the last session.',
        'Done in session 4.',
        'After two rounds of review.',
        'PROXY_BENCH_PREVIOUS=/tmp/fan-polls-old npm run bench',
        '`PROXY_BENCH_PREVIOUS=<tmp>/build`',
      ].map((line) => historyIn(line).length),
    ).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(
      [
        'Every card of a page shares one session with its proxy.',
        'A Node 20 signal is held weakly (nodejs/node#57736).',
        'Open `about:debugging#/runtime/this-firefox`.',
        'The [snippets](embedding.md#snippets) and colour `#1d4ed8`.',
      ].flatMap(historyIn),
    ).toEqual([]);
  });
});
