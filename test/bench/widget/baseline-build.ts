// The build the widget benchmark compares with: the widget of another commit, checked out in a worktree of its own
// and built with its own dependencies (its package-lock), once; later runs reuse it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** main before the widget delivery change: the figures of record compare with it. */
export const baselineCommit = 'd7c47da';

/** `dist/widget/` of the baseline commit, built in `FAN_POLLS_BASELINE_DIR` (default `/tmp/fp-baseline`). */
export function baselineWidgetDir(): string {
  const dir = process.env.FAN_POLLS_BASELINE_DIR ?? '/tmp/fp-baseline';
  const run = (command: string, args: string[], cwd: string): void => {
    execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  };
  if (!existsSync(`${dir}/package.json`))
    run('git', ['worktree', 'add', '--detach', dir, baselineCommit], root);
  if (!existsSync(`${dir}/node_modules`)) run('npm', ['ci', '--no-audit', '--no-fund'], dir);
  if (!existsSync(`${dir}/dist/widget/fan-polls.js`)) run('npx', ['vite', 'build', '--mode', 'widget'], dir);
  return `${dir}/dist/widget/`;
}

/**
 * The bench's "previous build", built once from `git archive` (no worktree): b309c60, before the proxy drew the card
 * (every phase from the element code); 4be278a, before the drawn card's snippet, with `WIDGET_BENCH_PREVIOUS=4be278a`.
 */
export const previousCommit = process.env.WIDGET_BENCH_PREVIOUS ?? 'b309c60';

/** `dist/widget/` of `previousCommit`, in `/tmp/fp-previous-<commit>`, with this checkout's `node_modules`. */
export function previousWidgetDir(): string {
  const dir = `/tmp/fp-previous-${previousCommit}`;
  const run = (command: string, args: string[], cwd: string): void => {
    execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  };
  if (!existsSync(`${dir}/package.json`)) {
    run('mkdir', ['-p', dir], root);
    execFileSync('sh', ['-c', `git archive ${previousCommit} | tar -x -C ${dir}`], { cwd: root });
    run('ln', ['-sfn', `${root}node_modules`, `${dir}/node_modules`], root);
  }
  if (!existsSync(`${dir}/dist/widget/fan-polls.js`)) run('npx', ['vite', 'build', '--mode', 'widget'], dir);
  return `${dir}/dist/widget/`;
}
