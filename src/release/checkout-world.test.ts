// The release on a real git repository of the test's own (never this one): a dry run leaves it as it was; a release
// commits and tags. The npm scripts (the widget build, the docs) are replaced: the repository has no sources.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkoutWorld } from './checkout-world.ts';
import { releaseFixtureFiles } from './release-fixture.ts';
import { release } from './release-steps.ts';

let root: string;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fan-polls-release-')) + '/';
  const files: Record<string, string> = {
    ...releaseFixtureFiles,
    'docs/reference.md': 'Widget version 0.1.0.\n',
    'docs/configuration.md': 'Settings.\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(root + path, text);
  }
  git('init', '--quiet');
  for (const [key, value] of [
    ['user.name', 'Release Test'],
    ['user.email', 'release-test@example.invalid'],
    ['commit.gpgSign', 'false'],
    ['tag.gpgSign', 'false'],
  ] as const)
    git('config', key, value);
  git('add', '.');
  git('commit', '--quiet', '-m', 'Start');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The checkout's world with the npm scripts recorded instead of run, and its output kept. */
function world(scripts: string[], output: string[]) {
  return checkoutWorld(root, {
    runScript: (script) => scripts.push(script),
    log: (line) => output.push(line),
  });
}

describe('npm run release on a git checkout', () => {
  it('--dry-run leaves the files, the commits and the tags as they were', () => {
    const head = git('rev-parse', 'HEAD');
    const changelog = readFileSync(root + 'CHANGELOG.md', 'utf8');
    const [scripts, output] = [[] as string[], [] as string[]];
    release({ version: '0.1.1', dryRun: true, date: '2026-12-01' }, world(scripts, output));
    expect(git('status', '--porcelain')).toBe('');
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('tag', '--list')).toBe('');
    expect(readFileSync(root + 'CHANGELOG.md', 'utf8')).toBe(changelog);
    expect(scripts).toEqual([]);
    expect(output).toContain('would run: npm run build:widget');
  });

  it('commits every rewritten file and tags the release with its entries', () => {
    const [scripts, output] = [[] as string[], [] as string[]];
    release({ version: '0.1.1', dryRun: false, date: '2026-12-01' }, world(scripts, output));
    expect(scripts).toEqual(['build:widget', 'docs']);
    expect(git('status', '--porcelain')).toBe('');
    expect(git('log', '--format=%s').split('\n')[0]).toBe('Release 0.1.1');
    expect(git('show', '--stat', '--format=', 'HEAD')).toContain('widget/base/widget-version.ts');
    expect(git('tag', '--list')).toBe('v0.1.1\n');
    expect(git('tag', '--list', '--format=%(contents)', 'v0.1.1').trim()).toBe('Fan Polls 0.1.1\n\n- Cards.');
    expect(readFileSync(root + 'package.json', 'utf8')).toContain('"version": "0.1.1"');
  });
});
