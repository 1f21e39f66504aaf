// Mozilla's addons-linter (through web-ext, in-process) on a Firefox build or its store zip, and the warnings the
// project accepts, each for a reason.
export interface LintMessage {
  readonly code: string;
  readonly message: string;
  readonly file?: string;
}
export interface LintReport {
  readonly errors: LintMessage[];
  readonly warnings: LintMessage[];
  readonly notices: LintMessage[];
}
interface WebExt {
  readonly cmd: {
    lint(
      params: { sourceDir: string; output: 'none'; selfHosted: boolean },
      options: { shouldExitProgram: false },
    ): Promise<LintReport>;
  };
}

/**
 * Warnings accepted, each for a reason: Lit builds its templates with `innerHTML` from the template's static strings
 * (values are bound later as text), and `data_collection_permissions` needs Firefox for Android 142 while the
 * extension does not run on Android at all (Firefox for Android has no `identity.launchWebAuthFlow`).
 */
function isAcceptedWarning(warning: LintMessage): boolean {
  if (warning.code === 'UNSAFE_VAR_ASSIGNMENT') return /^assets\/lit-[\w-]+\.js$/.test(warning.file ?? '');
  return warning.code === 'KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION';
}

/**
 * Lints an unpacked build or a zip (the linter reads the archive itself, as addons.mozilla.org does); resolves with
 * its errors and the warnings not accepted. In-process, not the CLI (which checks npm for updates); the linter's
 * schemas are bundled: no network.
 */
export async function lintFirefoxAddon(
  sourceDir: string,
): Promise<{ errors: LintMessage[]; warnings: LintMessage[] }> {
  // web-ext ships no types; a specifier typed as a plain string keeps TypeScript from looking for them.
  const webExtModule: string = 'web-ext';
  const { cmd } = (await import(webExtModule)) as WebExt;
  const report = await cmd.lint(
    { sourceDir, output: 'none', selfHosted: false },
    { shouldExitProgram: false },
  );
  return {
    errors: report.errors,
    warnings: report.warnings.filter((warning) => !isAcceptedWarning(warning)),
  };
}
