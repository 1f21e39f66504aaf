// `npm test` in two streams side by side, so that neither core waits. Lint, the format check and the type check run
// beside the build. Once the build is there (tests read `dist/`), two streams of about equal length: the browser
// tests of the widget and the journey (one file at a time, most of it waiting on browsers and servers), then the
// element tests; beside them the unit and integration tests, the extension's browser tests, then the browser files
// that mostly wait out a deadline (moved here so that both streams end together). Every line is
// shown as it comes, prefixed with its project, and each step says how long it took when it ends; the run fails when
// any step fails, and names which, then shows again what each failed step said of its failures (a CI log that keeps
// only its tail keeps that). Before anything is built, the system programs the tests start are checked.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { failureReport, FailureRecorder } from './failure-report.ts';
import { missingPrograms, missingProgramsReport } from './system-programs.ts';

interface Step {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
}

const npmScript = (label: string, script: string): Step => ({
  label,
  command: 'npm',
  args: ['run', '--silent', script],
});
const vitest = (label: string, projects: readonly string[]): Step => ({
  label,
  command: 'npx',
  args: ['vitest', 'run', ...projects.flatMap((project) => ['--project', project])],
});

const failed: string[] = [];
const failureReports: string[] = [];

const secondsSince = (start: number): string => String(Math.round((Date.now() - start) / 1000));

function run(step: Step): Promise<boolean> {
  const stepStarted = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
    });
    const prefix = `[${step.label}] `;
    const recorder = new FailureRecorder();
    createInterface({ input: child.stdout }).on('line', (line) => {
      recorder.add(line);
      process.stdout.write(prefix + line + '\n');
    });
    createInterface({ input: child.stderr }).on('line', (line) => {
      recorder.add(line);
      process.stderr.write(prefix + line + '\n');
    });
    let settled = false;
    const settle = (ok: boolean) => {
      // A child that cannot start reports `error`, and may report `close` after it: the step ends once.
      if (settled) return;
      settled = true;
      if (!ok) {
        failed.push(step.label);
        failureReports.push(failureReport(step.label, recorder.lines()));
      }
      const took = secondsSince(stepStarted);
      if (ok) console.log(`${prefix}done in ${took} s`);
      else console.error(`${prefix}failed in ${took} s`);
      resolve(ok);
    };
    child.on('error', () => {
      settle(false);
    });
    child.on('close', (code) => {
      settle(code === 0);
    });
  });
}

const missing = missingPrograms(process.env);
if (missing.length > 0) {
  console.error(missingProgramsReport(missing));
  process.exit(1);
}

const started = Date.now();
const built = run(npmScript('build', 'build'));

await Promise.all([
  run(npmScript('lint', 'lint')),
  run(npmScript('format', 'format:check')),
  run(npmScript('types', 'typecheck')),
  built.then(async (ok) => {
    if (!ok) return;
    await run(vitest('browser', ['browser']));
    await run(vitest('dom', ['dom']));
  }),
  built.then(async (ok) => {
    if (!ok) return;
    await run(vitest('unit', ['unit']));
    await run(vitest('extension', ['extension']));
    await run(vitest('browser-waits', ['browser-waits']));
  }),
]);

const seconds = secondsSince(started);
if (failed.length > 0) {
  console.error(failureReports.join('\n'));
  console.error(`npm test failed after ${seconds} s: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`npm test passed in ${seconds} s`);
