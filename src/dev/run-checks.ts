// `npm test`'s static checks, run side by side: lint (type-aware, one core for about a minute) beside the format
// check and the type check, which together take about as long. Every check's output is shown; the run fails when any
// check fails, and names which.
import { spawn } from 'node:child_process';

const checks = ['lint', 'format:check', 'typecheck'] as const;

function runScript(name: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: 'inherit' });
    child.on('error', () => {
      resolve(1);
    });
    child.on('close', (code) => {
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(checks.map(runScript));
const failed = checks.filter((_, index) => codes[index] !== 0);
if (failed.length > 0) {
  console.error(`Failed: ${failed.join(', ')}`);
  process.exit(1);
}
