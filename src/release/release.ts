// `npm run release -- <version>`: one command for a release. Refuses a dirty tree; writes the version into
// package.json, package-lock.json, the extension's manifest.json and the widget's constant (which the widget build
// writes to version.json, the proxy's `/widget/v<version>/`), moves CHANGELOG.md's unreleased entries under the
// version and today's date, moves the pinned snippets of the package's README, rebuilds the widget and
// docs/reference.md, then commits and tags `v<version>` (annotated with the release's entries). Pushing is yours.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

const root = fileURLToPath(new URL('../../', import.meta.url));

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

function rewrite(path: string, change: (text: string) => string): string {
  writeFileSync(root + path, change(readFileSync(root + path, 'utf8')));
  return path;
}

function release(version: string | undefined): void {
  const current = (JSON.parse(readFileSync(root + 'package.json', 'utf8')) as { version: string }).version;
  if (!version) throw new ReleaseError(`Usage: npm run release -- <version> (now ${current}).`);
  // The first release tags the number already in use ("## 0.1.0 (unreleased)"); later ones must come after it.
  const changelog = readFileSync(root + 'CHANGELOG.md', 'utf8');
  if (!(version === current && changelog.includes(`## ${current} (unreleased)`)))
    checkNextVersion(current, version);
  if (git('status', '--porcelain').trim() !== '')
    throw new ReleaseError('The working tree has changes: commit or stash them first.');
  if (git('tag', '--list', `v${version}`).trim() !== '')
    throw new ReleaseError(`The tag v${version} exists.`);
  const date = new Date().toISOString().slice(0, 10);
  const changed = [
    rewrite('CHANGELOG.md', (text) => withReleasedChangelog(text, version, date)),
    ...(version === current
      ? []
      : [
          rewrite('package.json', (text) => withJsonVersion(text, version)),
          rewrite('package-lock.json', (text) => withLockVersion(text, version)),
          rewrite('manifest.json', (text) => withJsonVersion(text, version)),
          rewrite('widget/base/widget-version.ts', (text) => withWidgetVersion(text, version)),
          rewrite('widget/package/README.md', (text) => withPinnedSnippets(text, current, version)),
        ]),
  ];
  // docs/reference.md names the version in its asset URLs: generated again from the new build.
  execFileSync('npm', ['run', 'build:widget'], { cwd: root, stdio: 'inherit' });
  execFileSync('npm', ['run', 'docs'], { cwd: root, stdio: 'inherit' });
  git('add', ...changed, 'docs/reference.md', 'docs/configuration.md');
  git('commit', '-m', `Release ${version}`);
  const notes = releaseNotes(readFileSync(root + 'CHANGELOG.md', 'utf8'), version);
  git('tag', '--annotate', `v${version}`, '--message', `Fan Polls ${version}\n\n${notes}`);
  console.log(
    `Tagged v${version}. Check it, then: git push --follow-tags; npm publish dist/package (after npm run build).`,
  );
}

try {
  release(process.argv[2]);
} catch (error) {
  if (!(error instanceof ReleaseError)) throw error;
  console.error(`release: ${error.message}`);
  process.exitCode = 1;
}
