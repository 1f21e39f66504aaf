import { describe, expect, it } from 'vitest';
import {
  ReleaseError,
  checkNextVersion,
  releaseNotes,
  withJsonVersion,
  withLockVersion,
  withPinnedSnippets,
  withReleasedChangelog,
  withWidgetVersion,
} from './release-files.ts';

const changelog = `# Changelog

Intro.

## 0.1.0 (unreleased)

First version for partners.

- Elements under \`/widget/v0.1.0/\`.
`;

describe('the release’s file changes', () => {
  it('accepts only a later version', () => {
    expect(() => {
      checkNextVersion('0.1.0', '0.2.0');
    }).not.toThrow();
    expect(() => {
      checkNextVersion('0.1.0', '0.1.1');
    }).not.toThrow();
    expect(() => {
      checkNextVersion('1.0.0-rc.1', '1.0.0');
    }).not.toThrow();
    expect(() => {
      checkNextVersion('0.1.0', '0.1.0');
    }).toThrow(ReleaseError);
    expect(() => {
      checkNextVersion('0.2.0', '0.1.9');
    }).toThrow(/does not come after/);
    expect(() => {
      checkNextVersion('0.1.0', 'v0.2');
    }).toThrow(/not a version/);
  });

  it('moves the unreleased entries under the version and its date, keeping an empty Unreleased on top', () => {
    const released = withReleasedChangelog(changelog, '0.2.0', '2026-11-25');
    expect(released).toBe(`# Changelog

Intro.

## Unreleased

## 0.2.0 (2026-11-25)

First version for partners.

- Elements under \`/widget/v0.1.0/\`.
`);
    expect(releaseNotes(released, '0.2.0')).toBe(
      'First version for partners.\n\n- Elements under `/widget/v0.1.0/`.',
    );
    // The next release takes what was written under Unreleased since, and keeps the older ones below.
    const next = withReleasedChangelog(
      released.replace('## Unreleased\n', '## Unreleased\n\n- A fix.\n'),
      '0.2.1',
      '2026-12-01',
    );
    expect(next).toContain('## Unreleased\n\n## 0.2.1 (2026-12-01)\n\n- A fix.\n\n## 0.2.0 (2026-11-25)');
    expect(releaseNotes(next, '0.2.1')).toBe('- A fix.');
  });

  it('refuses a release with nothing unreleased', () => {
    const released = withReleasedChangelog(changelog, '0.2.0', '2026-11-25');
    expect(() => withReleasedChangelog(released, '0.3.0', '2026-12-01')).toThrow(/nothing under/);
    expect(() => withReleasedChangelog('# Changelog\n', '0.3.0', '2026-12-01')).toThrow(/no "## Unreleased"/);
  });

  it('writes the version into package.json, the lock, the manifest and the widget’s constant', () => {
    expect(
      withJsonVersion(
        '{\n  "name": "fan-polls",\n  "version": "0.1.0",\n  "x": {"version": "9"}\n}\n',
        '0.2.0',
      ),
    ).toBe('{\n  "name": "fan-polls",\n  "version": "0.2.0",\n  "x": {"version": "9"}\n}\n');
    const lock = JSON.parse(
      withLockVersion(
        JSON.stringify({
          version: '0.1.0',
          packages: { '': { version: '0.1.0' }, 'node_modules/lit': { version: '3.3.3' } },
        }),
        '0.2.0',
      ),
    ) as { version: string; packages: Record<string, { version: string }> };
    expect([lock.version, lock.packages['']?.version, lock.packages['node_modules/lit']?.version]).toEqual([
      '0.2.0',
      '0.2.0',
      '3.3.3',
    ]);
    expect(withWidgetVersion("/** Doc. */\nexport const widgetVersion = '0.1.0';\n", '0.2.0')).toBe(
      "/** Doc. */\nexport const widgetVersion = '0.2.0';\n",
    );
    expect(
      withPinnedSnippets(
        'src="https://p/widget/v0.1.0/fan-polls.js" and npm/fan-polls@0.1.0/cdn/ and 0.1.0',
        '0.1.0',
        '0.2.0',
      ),
    ).toBe('src="https://p/widget/v0.2.0/fan-polls.js" and npm/fan-polls@0.2.0/cdn/ and 0.1.0');
  });
});
