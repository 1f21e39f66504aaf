import { describe, expect, it } from 'vitest';
import { ReleaseUsageError, parseReleaseArguments, releaseCommand, releaseUsage } from './release-command.ts';
import type { ReleaseWorld } from './release-steps.ts';

/** A world that fails a test if the command touches anything but its output. */
function outputOnly(output: string[]): ReleaseWorld {
  const untouchable = () => {
    throw new Error('the command touched the repository');
  };
  return {
    readFile: untouchable,
    writeFile: untouchable,
    askGit: untouchable,
    changeGit: untouchable,
    runScript: untouchable,
    log: (line) => {
      output.push(line);
    },
  };
}

describe('the release command’s arguments', () => {
  it('takes a version and --dry-run in any order', () => {
    expect(parseReleaseArguments(['0.2.0'], {})).toEqual({ help: false, version: '0.2.0', dryRun: false });
    expect(parseReleaseArguments(['0.2.0', '--dry-run'], {})).toEqual({
      help: false,
      version: '0.2.0',
      dryRun: true,
    });
    expect(parseReleaseArguments(['--dry-run', '0.2.0'], {})).toEqual({
      help: false,
      version: '0.2.0',
      dryRun: true,
    });
  });

  it('is a dry run when npm took --dry-run for itself (no `--` before it)', () => {
    expect(parseReleaseArguments(['0.2.0'], { npm_config_dry_run: 'true' })).toMatchObject({ dryRun: true });
  });

  it('takes --help and -h before anything else', () => {
    expect(parseReleaseArguments(['--help'], {})).toEqual({ help: true });
    expect(parseReleaseArguments(['0.2.0', '-h', '--nonsense'], {})).toEqual({ help: true });
  });

  it('refuses an unknown option, no version or two versions', () => {
    expect(() => parseReleaseArguments(['0.2.0', '--dryrun'], {})).toThrow(ReleaseUsageError);
    expect(() => parseReleaseArguments(['0.2.0', '--dryrun'], {})).toThrow('Unknown option --dryrun.');
    expect(() => parseReleaseArguments(['--dry-run'], {})).toThrow(/Which version/);
    expect(() => parseReleaseArguments(['0.2.0', '0.3.0'], {})).toThrow(/One version only/);
  });
});

describe('the release command', () => {
  it('prints its usage for --help, exits 0 and touches nothing', () => {
    const output: string[] = [];
    const errors: string[] = [];
    expect(
      releaseCommand(['--help'], {}, outputOnly(output), '2026-12-01', (line) => errors.push(line)),
    ).toBe(0);
    expect(output).toEqual([releaseUsage]);
    expect(errors).toEqual([]);
  });

  it('exits 2 with a message on an unknown option, touching nothing', () => {
    const errors: string[] = [];
    expect(
      releaseCommand(['0.2.0', '--force'], {}, outputOnly([]), '2026-12-01', (line) => errors.push(line)),
    ).toBe(2);
    expect(errors).toEqual([
      'release: Unknown option --force.',
      'Run `npm run release -- --help` for the usage.',
    ]);
  });

  it('exits 1 when the release refuses', () => {
    const errors: string[] = [];
    const world: ReleaseWorld = {
      ...outputOnly([]),
      readFile: (path) => (path === 'package.json' ? '{"version": "0.2.0"}' : '# Changelog\n'),
    };
    expect(releaseCommand(['0.1.0'], {}, world, '2026-12-01', (line) => errors.push(line))).toBe(1);
    expect(errors).toEqual(['release: 0.1.0 does not come after the current 0.2.0.']);
  });
});
