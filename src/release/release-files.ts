// The pure part of `npm run release -- <version>`: each file the version lives in, rewritten as text (so a file's
// formatting and everything else in it stay as they are).

/** `major.minor.patch` with an optional pre-release (`0.2.0`, `1.0.0-rc.1`). */
const versionPattern = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export class ReleaseError extends Error {
  override readonly name = 'ReleaseError';
}

/** Throws unless `next` is a version and comes after `current` (pre-releases of one number come before it). */
export function checkNextVersion(current: string, next: string): void {
  const [a, b] = [versionPattern.exec(current), versionPattern.exec(next)];
  if (!b) throw new ReleaseError(`"${next}" is not a version (major.minor.patch, e.g. 0.2.0).`);
  if (!a) throw new ReleaseError(`The current version "${current}" is not a version.`);
  for (const index of [1, 2, 3]) {
    const difference = Number(b[index]) - Number(a[index]);
    if (difference > 0) return;
    if (difference < 0) throw new ReleaseError(`${next} does not come after the current ${current}.`);
  }
  // Same number: only 1.0.0-rc.1 to 1.0.0, or one pre-release to a later one.
  const [pre, nextPre] = [a[4], b[4]];
  if (pre !== undefined && (nextPre === undefined || nextPre > pre)) return;
  throw new ReleaseError(`${next} does not come after the current ${current}.`);
}

/** The `"version"` of a package.json or manifest.json (the first one, the top level's). */
export function withJsonVersion(text: string, version: string): string {
  if (!/"version":\s*"[^"]*"/.test(text)) throw new ReleaseError('No "version" field.');
  return text.replace(/("version":\s*)"[^"]*"/, `$1"${version}"`);
}

/** package-lock.json: the top level's version and the root package's (`packages[""]`). */
export function withLockVersion(text: string, version: string): string {
  const lock = JSON.parse(text) as { version?: string; packages?: Record<string, { version?: string }> };
  lock.version = version;
  const root = lock.packages?.[''];
  if (root) root.version = version;
  return JSON.stringify(lock, null, 2) + '\n';
}

/** `widget/base/widget-version.ts`: the constant the widget build writes to `version.json` (the proxy's `/widget/v<it>/`). */
export function withWidgetVersion(source: string, version: string): string {
  const pattern = /(export const widgetVersion = )'[^']*';/;
  if (!pattern.test(source)) throw new ReleaseError('widget-version.ts declares no widgetVersion.');
  return source.replace(pattern, `$1'${version}';`);
}

/** Snippets that pin a version (`/widget/v0.1.0/`, `fan-polls@0.1.0/`), moved to `version`. */
export function withPinnedSnippets(text: string, current: string, version: string): string {
  const escaped = current.replace(/\./g, '\\.');
  return text
    .replace(new RegExp(`/widget/v${escaped}/`, 'g'), `/widget/v${version}/`)
    .replace(new RegExp(`fan-polls@${escaped}/`, 'g'), `fan-polls@${version}/`);
}

/**
 * CHANGELOG.md: the entries under `## Unreleased` (or `## <version> (unreleased)`) move under `## <version>
 * (<date>)`, and an empty `## Unreleased` stays on top for the next ones. Refuses a release with nothing in it.
 */
export function withReleasedChangelog(text: string, version: string, date: string): string {
  const heading = /^## (?:Unreleased|\S+ \(unreleased\))[ \t]*$/im.exec(text);
  if (!heading) throw new ReleaseError('CHANGELOG.md has no "## Unreleased" section.');
  const start = heading.index + heading[0].length;
  const next = text.slice(start).search(/^## /m);
  const entries = (next === -1 ? text.slice(start) : text.slice(start, start + next)).trim();
  if (entries === '') throw new ReleaseError('CHANGELOG.md has nothing under "## Unreleased" to release.');
  return (
    text.slice(0, heading.index) +
    `## Unreleased\n\n## ${version} (${date})\n\n${entries}\n` +
    (next === -1 ? '' : '\n' + text.slice(start + next))
  );
}

/** The entries released as `version`, for the tag's message. */
export function releaseNotes(changelog: string, version: string): string {
  const escaped = version.replace(/\./g, '\\.');
  const match = new RegExp(`^## ${escaped} \\([^)]*\\)\\n([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(
    changelog,
  );
  return match?.[1]?.trim() ?? '';
}
