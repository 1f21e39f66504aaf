// The size of the project's Markdown and the length of its guides' sentences, with the budgets `npm test` holds
// them to (src/documents-budget.test.ts). `npx tsx src/dev/markdown-measure.ts` prints the figures per file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The whole Markdown outside the generated documents, in bytes. Say a thing once and link to it to stay under. */
export const markdownBudgetBytes = 200_000;
/** The median sentence of the guides, in words. */
export const medianSentenceBudgetWords = 22;

/**
 * Written by `npm run docs` from the code and the benches' results, so not counted. BENCHMARKS.md has a budget of
 * its own (`src/dev/benchmarks-docs.test.ts`): a bench run changes it, and must not fail the prose's budget.
 */
const generatedDocuments = ['docs/reference.md', 'docs/configuration.md', 'BENCHMARKS.md'] as const;

const skipped = new Set(['node_modules', 'dist', 'test-results']);

/** Every Markdown file of the project, relative to `root`, generated ones excluded. */
export function markdownFiles(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory())
        return skipped.has(entry.name) || entry.name.startsWith('.') ? [] : markdownFiles(root, path);
      return entry.name.endsWith('.md') ? [relative(root, path)] : [];
    })
    .filter((file) => !(generatedDocuments as readonly string[]).includes(file))
    .sort();
}

/** The guides: what a reader reads to use or change the project (not the dated records, the changelog or figures). */
function isGuide(file: string): boolean {
  return !file.startsWith('docs/decisions/') && file !== 'CHANGELOG.md' && file !== 'BENCHMARKS.md';
}

/** The prose of a Markdown text as paragraphs and list items, one a line: no code, tables, headings or link targets. */
function proseOf(markdown: string): string[] {
  return markdown
    .replace(/```[\s\S]*?```/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('|') && !line.trimStart().startsWith('#'))
    .join('\n')
    .split(/\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)/)
    .map((block) =>
      block
        .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
        .replace(/\s+/g, ' ')
        .replace(/`[^`]*`/g, 'code')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .trim(),
    )
    .filter((block) => block !== '');
}

/** The sentences of a Markdown text, each as its word count: a sentence ends at `.`, `!` or `?`, or with its block. */
export function sentenceLengths(markdown: string): number[] {
  return proseOf(markdown)
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=\S)/))
    .map((sentence) => sentence.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length)
    .filter((words) => words >= 3);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? 0) + upper) / 2;
}

export interface MarkdownMeasure {
  files: { file: string; bytes: number; medianWords: number | undefined }[];
  totalBytes: number;
  guidesMedianWords: number;
}

export function measureMarkdown(root: string): MarkdownMeasure {
  const guideSentences: number[] = [];
  const files = markdownFiles(root).map((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const lengths = sentenceLengths(text);
    if (isGuide(file)) guideSentences.push(...lengths);
    return {
      file,
      bytes: Buffer.byteLength(text),
      medianWords: isGuide(file) ? median(lengths) : undefined,
    };
  });
  return {
    files,
    totalBytes: files.reduce((sum, { bytes }) => sum + bytes, 0),
    guidesMedianWords: median(guideSentences),
  };
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of markdown.replace(/```[\s\S]*?```/g, '').split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${String(count)}`);
  }
  return anchors;
}

/** Every relative link of the project's Markdown that leaves the repository or whose file or heading does not exist. */
export function brokenLinks(root: string): string[] {
  const files = [...markdownFiles(root), ...generatedDocuments];
  const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  return [...texts].flatMap(([file, markdown]) => {
    const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .filter((target) => {
        const [path = '', anchor] = target.split('#');
        const resolved =
          path === '' ? file : relative(root, join(root, file, '..', decodeURIComponent(path)));
        // A file beside the clone is not in every clone: a link must stay inside the repository.
        if (resolved.startsWith('..')) return true;
        let linked = texts.get(resolved);
        if (linked === undefined) {
          try {
            linked = readFileSync(join(root, resolved), 'utf8');
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EISDIR') return false;
            return true;
          }
        }
        return anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(linked).has(anchor);
      })
      .map((target) => `${file}: ${target}`);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const measure = measureMarkdown(root);
  for (const { file, bytes, medianWords } of measure.files.filter(({ bytes }) => bytes > 4000))
    console.log(
      `${(bytes / 1000).toFixed(1).padStart(6)} kB  ${String(medianWords ?? '-').padStart(4)}  ${file}`,
    );
  console.log(
    `${(measure.totalBytes / 1000).toFixed(1).padStart(6)} kB  total (budget ${markdownBudgetBytes / 1000} kB)`,
  );
  console.log(
    `median sentence of the guides: ${measure.guidesMedianWords} words (budget ${medianSentenceBudgetWords})`,
  );
  for (const link of brokenLinks(root)) console.log(`broken link: ${link}`);
}
