import { describe, expect, it } from 'vitest';
import { ReleaseError } from './release-files.ts';
import { releaseFixtureFiles } from './release-fixture.ts';
import { release, type ReleaseWorld } from './release-steps.ts';

const files = releaseFixtureFiles;

/** A repository in memory: its files, what git answers, and every change and line in order. */
function memoryWorld(options: { dirty?: boolean; tags?: string } = {}) {
  const state = new Map<string, string>(Object.entries(files));
  const changes: string[] = [];
  const output: string[] = [];
  const world: ReleaseWorld = {
    readFile: (path) => {
      const text = state.get(path);
      if (text === undefined) throw new Error(`no ${path}`);
      return text;
    },
    writeFile: (path, text) => {
      state.set(path, text);
      changes.push(`write ${path}`);
    },
    askGit: (args) => {
      if (args[0] === 'status') return options.dirty ? ' M README.md\n' : '';
      if (args[0] === 'tag') return options.tags ?? '';
      throw new Error(`unexpected git ${args.join(' ')}`);
    },
    changeGit: (args) => {
      changes.push(`git ${args.slice(0, 2).join(' ')}`);
    },
    runScript: (script) => {
      changes.push(`npm run ${script}`);
    },
    log: (line) => {
      output.push(line);
    },
  };
  return { world, state, changes, output };
}

describe('npm run release', () => {
  it('writes the version everywhere, rebuilds, commits and tags, in that order', () => {
    const { world, state, changes } = memoryWorld();
    release({ version: '0.2.0', dryRun: false, date: '2026-12-01' }, world);
    expect(changes).toEqual([
      'write CHANGELOG.md',
      'write package.json',
      'write package-lock.json',
      'write manifest.json',
      'write widget/base/widget-version.ts',
      'write widget/package/README.md',
      'npm run build:widget',
      'npm run docs',
      'git add CHANGELOG.md',
      'git commit -m',
      'git tag --annotate',
    ]);
    expect(state.get('CHANGELOG.md')).toContain('## Unreleased\n\n## 0.2.0 (2026-12-01)\n\n- Cards.');
    expect(state.get('widget/base/widget-version.ts')).toContain("'0.2.0'");
    expect(state.get('widget/package/README.md')).toContain('/widget/v0.2.0/');
  });

  it('in a dry run changes nothing, and says what it would write and run', () => {
    const { world, state, changes, output } = memoryWorld();
    release({ version: '0.2.0', dryRun: true, date: '2026-12-01' }, world);
    expect(changes).toEqual([]);
    expect(Object.fromEntries(state)).toEqual(files);
    expect(output).toContain('would write CHANGELOG.md');
    expect(output).toContain('    + ## 0.2.0 (2026-12-01)');
    expect(output).toContain('would write widget/base/widget-version.ts');
    expect(output).toContain('would run: npm run build:widget');
    expect(output).toContain("would run: git commit -m 'Release 0.2.0'");
    expect(
      output.some((line) =>
        line.startsWith("would run: git tag --annotate v0.2.0 --message 'Fan Polls 0.2.0"),
      ),
    ).toBe(true);
    expect(output.at(-1)).toMatch(/^Dry run done: nothing was written/);
  });

  it('stops on a working tree with changes; a dry run says so and goes on', () => {
    expect(() => {
      release({ version: '0.2.0', dryRun: false, date: '2026-12-01' }, memoryWorld({ dirty: true }).world);
    }).toThrow(/working tree has changes/);
    const dry = memoryWorld({ dirty: true });
    release({ version: '0.2.0', dryRun: true, date: '2026-12-01' }, dry.world);
    expect(dry.changes).toEqual([]);
    expect(dry.output[0]).toMatch(/^The release itself would stop here\. The working tree has changes/);
  });

  it('refuses an existing tag or a version that does not come after the current one, dry run or not', () => {
    for (const dryRun of [false, true]) {
      const tagged = memoryWorld({ tags: 'v0.2.0\n' });
      expect(() => {
        release({ version: '0.2.0', dryRun, date: '2026-12-01' }, tagged.world);
      }).toThrow(ReleaseError);
      expect(tagged.changes).toEqual([]);
      expect(() => {
        release({ version: '0.0.9', dryRun, date: '2026-12-01' }, memoryWorld().world);
      }).toThrow(/does not come after/);
    }
  });

  it('releases the version in use once, when the changelog holds it unreleased', () => {
    const { world, changes } = memoryWorld();
    release({ version: '0.1.0', dryRun: false, date: '2026-12-01' }, world);
    expect(changes.filter((change) => change.startsWith('write'))).toEqual(['write CHANGELOG.md']);
  });
});
