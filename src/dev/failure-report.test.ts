import { describe, expect, test } from 'vitest';
import { failureReport, FailureRecorder, reportLimits } from './failure-report.ts';

// What vitest 4 prints for a failed test, colour codes and all.
const vitestFailure = [
  '\u001b[31m❯\u001b[39m  browser  test/journey/fan-journey.test.ts (9 tests | 1 failed) 91234ms',
  '\u001b[31m     \u001b[31m×\u001b[31m votes in WebKit\u001b[39m 61000ms',
  '     \u001b[32m✓\u001b[39m votes in Chromium 5000ms',
  '\u001b[31m⎯⎯⎯⎯⎯⎯⎯\u001b[39m\u001b[1m\u001b[41m Failed Tests 1 \u001b[49m\u001b[22m\u001b[31m⎯⎯⎯⎯⎯⎯⎯\u001b[39m',
  '',
  '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m  browser  test/journey/fan-journey.test.ts > votes in WebKit',
  '\u001b[31m\u001b[1mError\u001b[22m: Timed out waiting for the card to show the vote\u001b[39m',
  ' ❯ test/journey/sign-in-and-vote.ts:80:11',
  '',
  '\u001b[2m Test Files \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m\u001b[90m (40)\u001b[39m',
  '\u001b[2m      Tests \u001b[22m \u001b[1m\u001b[31m1 failed\u001b[39m\u001b[22m | 120 passed (121)',
];

describe('failure report of a step of npm test', () => {
  test('names the failing file and test, then gives vitest’s failure section without colour codes', () => {
    const recorder = new FailureRecorder();
    for (const line of vitestFailure) recorder.add(line);
    const report = failureReport('browser', recorder.lines());
    expect(report).not.toContain('\u001b[');
    const lines = report.split('\n');
    expect(lines[0]).toBe('[browser] ── browser failed ──');
    expect(lines).toContain(
      '[browser]   ❯  browser  test/journey/fan-journey.test.ts (9 tests | 1 failed) 91234ms',
    );
    expect(lines).toContain('[browser]   × votes in WebKit 61000ms');
    expect(report).toContain('FAIL   browser  test/journey/fan-journey.test.ts > votes in WebKit');
    expect(report).toContain('Error: Timed out waiting for the card to show the vote');
    expect(report).toContain('sign-in-and-vote.ts:80:11');
    expect(report).not.toContain('votes in Chromium');
    expect(report).not.toContain('Test Files');
  });

  test('gives the last lines of a step that printed no failure section', () => {
    const recorder = new FailureRecorder();
    const printed = Array.from({ length: 100 }, (_, index) => `line ${index}`);
    for (const line of printed) recorder.add(line);
    const report = failureReport('lint', recorder.lines()).split('\n');
    expect(report.slice(1)).toEqual(printed.slice(-reportLimits.tail).map((line) => `[lint] ${line}`));
  });

  test('keeps a long failure section within its limit', () => {
    const recorder = new FailureRecorder();
    recorder.add('⎯⎯⎯ Failed Tests 30 ⎯⎯⎯');
    for (let index = 0; index < 500; index += 1) recorder.add(`stack line ${index}`);
    expect(recorder.lines().details).toHaveLength(reportLimits.failedSection);
  });
});
