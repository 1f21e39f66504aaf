// The Debian programs the tests start themselves, the list `.ci/run` installs. `npm test` checks them before it
// builds anything, so a missing browser stops the run at once instead of failing a test file after minutes.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface SystemProgram {
  /** The name the tests know it by. */
  readonly name: string;
  /** The Debian package that installs it. */
  readonly debianPackage: string;
  /** Where it may be: a path, or a bare name looked up on `PATH`. The first one found will do. */
  readonly candidates: readonly string[];
}

/** The programs, with the environment's overrides (`CHROMIUM_PATH`, `FIREFOX_PATH`, `REDIS_SERVER_PATH`). */
export function systemPrograms(env: NodeJS.ProcessEnv): SystemProgram[] {
  return [
    { name: 'chromium', debianPackage: 'chromium', candidates: [env.CHROMIUM_PATH ?? '/usr/bin/chromium'] },
    {
      name: 'firefox-esr',
      debianPackage: 'firefox-esr',
      candidates: [env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'],
    },
    { name: 'WebKitWebDriver', debianPackage: 'webkit2gtk-driver', candidates: ['WebKitWebDriver'] },
    { name: 'Xvfb', debianPackage: 'xvfb', candidates: ['Xvfb'] },
    {
      name: 'redis-server',
      debianPackage: 'redis-server',
      candidates: [env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server'],
    },
    { name: 'nginx', debianPackage: 'nginx', candidates: ['nginx', '/usr/sbin/nginx'] },
    // The fan's tap on WebKitGTK's storage access bar, its screenshot, and the https test stack's certificate.
    { name: 'xdotool', debianPackage: 'xdotool', candidates: ['xdotool'] },
    { name: 'scrot', debianPackage: 'scrot', candidates: ['scrot'] },
    { name: 'openssl', debianPackage: 'openssl', candidates: ['openssl'] },
  ];
}

/** Whether `path` is a file this process may run. */
function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where a candidate runs from, as the shell's `command -v` finds it: a path as it is, a bare name on `PATH`. */
export function locate(
  candidate: string,
  env: NodeJS.ProcessEnv,
  isExecutable: (path: string) => boolean = isExecutableFile,
): string | undefined {
  if (candidate.includes('/')) return isExecutable(candidate) ? candidate : undefined;
  const folders = (env.PATH ?? '').split(delimiter).filter((folder) => folder !== '');
  return folders.map((folder) => join(folder, candidate)).find((path) => isExecutable(path));
}

/** The programs none of whose candidates is found. */
export function missingPrograms(
  env: NodeJS.ProcessEnv,
  isExecutable: (path: string) => boolean = isExecutableFile,
): SystemProgram[] {
  return systemPrograms(env).filter((program) =>
    program.candidates.every((candidate) => locate(candidate, env, isExecutable) === undefined),
  );
}

/** The one command that installs every missing program. */
export function installCommand(missing: readonly SystemProgram[]): string {
  const packages = [...new Set(missing.map((program) => program.debianPackage))];
  return `apt-get install -y ${packages.join(' ')}`;
}

/** What `npm test` prints when programs are missing: each one and where it was looked for, then the command. */
export function missingProgramsReport(missing: readonly SystemProgram[]): string {
  const lines = missing.map((program) => `  ${program.name} (looked for: ${program.candidates.join(', ')})`);
  return [
    'npm test needs programs that are not installed:',
    ...lines,
    `Install them with: ${installCommand(missing)}`,
  ].join('\n');
}
