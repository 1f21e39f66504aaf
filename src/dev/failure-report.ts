// What a failed step of `npm test` said of its failures, kept to be shown again once every step has ended: the
// failing tests vitest names as they end, then its "Failed Tests" section (each failure's error and where it was
// thrown), or, for a step that is not vitest or failed before that section, its last lines. Colour codes go, and the
// report stays short enough for a CI log that keeps only its tail.

const ansiEscape = new RegExp(String.raw`\u001b\[[0-9;]*m`, 'g');
const failedTestLine = /^\s*(?:FAIL\s|×\s|❯\s.*\d+ failed)/;
const failedSectionStart = /⎯+\s*Failed Tests\s+\d+/;
const summaryStart = /^\s*Test Files\s/;

export const reportLimits = { failedTests: 20, failedSection: 80, tail: 40 } as const;

export class FailureRecorder {
  readonly #failedTests: string[] = [];
  readonly #failedSection: string[] = [];
  readonly #tail: string[] = [];
  #inFailedSection = false;

  add(rawLine: string): void {
    const line = rawLine.replace(ansiEscape, '').trimEnd();
    this.#tail.push(line);
    if (this.#tail.length > reportLimits.tail) this.#tail.shift();
    if (failedSectionStart.test(line)) this.#inFailedSection = true;
    else if (summaryStart.test(line)) this.#inFailedSection = false;
    if (this.#inFailedSection) {
      if (this.#failedSection.length < reportLimits.failedSection) this.#failedSection.push(line);
      return;
    }
    if (failedTestLine.test(line) && this.#failedTests.length < reportLimits.failedTests) {
      this.#failedTests.push(line.trim());
    }
  }

  lines(): { readonly failedTests: readonly string[]; readonly details: readonly string[] } {
    return {
      failedTests: [...new Set(this.#failedTests)],
      details: this.#failedSection.length > 0 ? [...this.#failedSection] : [...this.#tail],
    };
  }
}

export function failureReport(
  label: string,
  { failedTests, details }: ReturnType<FailureRecorder['lines']>,
): string {
  const heading = `── ${label} failed ──`;
  const named = failedTests.length > 0 ? ['Failing:', ...failedTests.map((name) => `  ${name}`)] : [];
  return [heading, ...named, ...details].map((line) => `[${label}] ${line}`).join('\n');
}
