import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashBuildInputs, isBuildFresh, recordBuild } from './build-freshness.ts';

describe('build freshness', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'fan-polls-build-'));
    mkdirSync(join(root, 'widget/fan-poll'), { recursive: true });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'widget/fan-poll/fan-poll.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'manifest.json'), '{}');
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('is stale before the first build and fresh after it is recorded', () => {
    expect(isBuildFresh(root)).toBe(false);
    recordBuild(root);
    expect(isBuildFresh(root)).toBe(true);
  });

  it('turns stale when a source, a root file or a new file changes the inputs', () => {
    recordBuild(root);
    writeFileSync(join(root, 'widget/fan-poll/fan-poll.ts'), 'export const a = 2;\n');
    expect(isBuildFresh(root)).toBe(false);
    recordBuild(root);
    writeFileSync(join(root, 'manifest.json'), '{"name":"x"}');
    expect(isBuildFresh(root)).toBe(false);
    recordBuild(root);
    writeFileSync(join(root, 'widget/new.ts'), '');
    expect(isBuildFresh(root)).toBe(false);
  });

  it('ignores tests and build output', () => {
    const before = hashBuildInputs(root);
    writeFileSync(join(root, 'widget/fan-poll/fan-poll.test.ts'), 'test');
    writeFileSync(join(root, 'dist/fan-polls.js'), 'built');
    expect(hashBuildInputs(root)).toBe(before);
  });
});
