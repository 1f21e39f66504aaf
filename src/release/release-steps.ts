// The steps of `npm run release -- <version>`, over an injected world (files, git, npm scripts, output), so that a
// dry run is the same steps with every change printed instead of made, and tests run them without touching git.
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

/** What a release reads and changes; paths are from the repository's root. */
export interface ReleaseWorld {
  readFile(path: string): string;
  writeFile(path: string, text: string): void;
  /** A git command that only reads (`status`, `tag --list`); it runs in a dry run too. */
  askGit(args: readonly string[]): string;
  /** A git command that changes the repository (`add`, `commit`, `tag`). */
  changeGit(args: readonly string[]): void;
  /** `npm run <script>` at the root, its output shown. */
  runScript(script: string): void;
  log(line: string): void;
}

export interface ReleaseRequest {
  readonly version: string;
  /** Check everything, change nothing, print what a release would write and run. */
  readonly dryRun: boolean;
  /** The release's date, `YYYY-MM-DD`. */
  readonly date: string;
}

/** An argument as a shell would need it quoted. */
function shellWord(arg: string): string {
  return /^[\w./:=@-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The lines a rewrite takes out (`-`) and puts in (`+`), for the dry run's account. */
function changedLines(before: string, after: string): string[] {
  const [old, next] = [before.split('\n'), after.split('\n')];
  return [
    ...old.filter((line) => !next.includes(line)).map((line) => `    - ${line}`),
    ...next.filter((line) => !old.includes(line)).map((line) => `    + ${line}`),
  ];
}

/** The world of a dry run: reads and read-only git commands as they are; every change printed, none made. */
function dryRunWorld(world: ReleaseWorld): ReleaseWorld {
  return {
    readFile: (path) => world.readFile(path),
    askGit: (args) => world.askGit(args),
    writeFile: (path, text) => {
      world.log(`would write ${path}`);
      for (const line of changedLines(world.readFile(path), text)) world.log(line);
    },
    changeGit: (args) => {
      world.log(`would run: git ${args.map(shellWord).join(' ')}`);
    },
    runScript: (script) => {
      world.log(`would run: npm run ${script}`);
    },
    log: (line) => {
      world.log(line);
    },
  };
}

/** The release: checks, the version written into each file that holds it, the rebuilt docs, a commit and a tag. */
export function release(request: ReleaseRequest, realWorld: ReleaseWorld): void {
  const { version, dryRun, date } = request;
  const world = dryRun ? dryRunWorld(realWorld) : realWorld;
  const current = (JSON.parse(world.readFile('package.json')) as { version: string }).version;
  // The first release tags the number already in use ("## 0.1.0 (unreleased)"); later ones must come after it.
  const changelog = world.readFile('CHANGELOG.md');
  if (!(version === current && changelog.includes(`## ${current} (unreleased)`)))
    checkNextVersion(current, version);
  if (world.askGit(['status', '--porcelain']).trim() !== '') {
    const dirty = 'The working tree has changes: commit or stash them first.';
    if (!dryRun) throw new ReleaseError(dirty);
    world.log(`The release itself would stop here. ${dirty}`);
  }
  if (world.askGit(['tag', '--list', `v${version}`]).trim() !== '')
    throw new ReleaseError(`The tag v${version} exists.`);
  if (dryRun) world.log(`Dry run: release ${version} (now ${current}), dated ${date}. Nothing is changed.`);

  const releasedChangelog = withReleasedChangelog(changelog, version, date);
  const rewrites: [path: string, change: (text: string) => string][] = [
    ['CHANGELOG.md', () => releasedChangelog],
    ...(version === current
      ? []
      : ([
          ['package.json', (text) => withJsonVersion(text, version)],
          ['package-lock.json', (text) => withLockVersion(text, version)],
          ['manifest.json', (text) => withJsonVersion(text, version)],
          ['widget/base/widget-version.ts', (text) => withWidgetVersion(text, version)],
          ['widget/package/README.md', (text) => withPinnedSnippets(text, current, version)],
        ] satisfies [string, (text: string) => string][])),
  ];
  const changed = rewrites.map(([path, change]) => {
    world.writeFile(path, change(world.readFile(path)));
    return path;
  });
  // docs/reference.md names the version in its asset URLs: generated again from the new build.
  world.runScript('build:widget');
  world.runScript('docs');
  world.changeGit(['add', ...changed, 'docs/reference.md', 'docs/configuration.md']);
  world.changeGit(['commit', '-m', `Release ${version}`]);
  const notes = releaseNotes(releasedChangelog, version);
  world.changeGit(['tag', '--annotate', `v${version}`, '--message', `Fan Polls ${version}\n\n${notes}`]);
  world.log(
    dryRun
      ? `Dry run done: nothing was written, built, committed or tagged.`
      : `Tagged v${version}. Check it, then: git push --follow-tags; npm publish dist/package (after npm run build).`,
  );
}
