// `npm run release -- <version> [--dry-run]` as a command: its arguments, its usage text and its exit code.
import { ReleaseError } from './release-files.ts';
import { release, type ReleaseWorld } from './release-steps.ts';

export const releaseUsage = `Usage: npm run release -- <version> [--dry-run]

Releases <version> (major.minor.patch, e.g. 0.2.0): writes it into package.json, package-lock.json,
manifest.json, the widget's constant and the package README's snippets, moves CHANGELOG.md's unreleased
entries under it and today's date, rebuilds the widget and docs/reference.md, commits, and tags v<version>.
It refuses a working tree with changes. Pushing is yours.

Options:
  --dry-run   check, then print what it would write and run; change nothing
  --help, -h  print this text`;

/** Wrong arguments: exit code 2, as for a shell command's usage error. */
export class ReleaseUsageError extends ReleaseError {}

export type ReleaseArguments =
  { readonly help: true } | { readonly help: false; readonly version: string; readonly dryRun: boolean };

/**
 * The command's arguments. `npm run release --dry-run 0.2.0` (no `--`) gives npm the flag instead of the script,
 * which npm hands on as `npm_config_dry_run=true`: that is a dry run too, never a release.
 */
export function parseReleaseArguments(args: readonly string[], env: NodeJS.ProcessEnv): ReleaseArguments {
  let dryRun = env.npm_config_dry_run === 'true';
  const versions: string[] = [];
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') return { help: true };
    else if (arg === '--dry-run') dryRun = true;
    else if (arg.startsWith('-')) throw new ReleaseUsageError(`Unknown option ${arg}.`);
    else versions.push(arg);
  }
  const [version, ...more] = versions;
  if (version === undefined) throw new ReleaseUsageError('Which version? Give one, e.g. 0.2.0.');
  if (more.length > 0) throw new ReleaseUsageError(`One version only, not ${versions.join(' and ')}.`);
  return { help: false, version, dryRun };
}

/** Runs the command; its exit code: 0 done, 1 the release refused, 2 wrong arguments. */
export function releaseCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  world: ReleaseWorld,
  date: string,
  logError: (line: string) => void,
): number {
  try {
    const parsed = parseReleaseArguments(args, env);
    if (parsed.help) {
      world.log(releaseUsage);
      return 0;
    }
    release({ version: parsed.version, dryRun: parsed.dryRun, date }, world);
    return 0;
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    logError(`release: ${error.message}`);
    if (!(error instanceof ReleaseUsageError)) return 1;
    logError('Run `npm run release -- --help` for the usage.');
    return 2;
  }
}
