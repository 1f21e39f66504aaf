import { defineTags } from './define-tags.ts';
import { modulePartLoader } from './runtime/module-part-loader.ts';
import { setPartLoader } from './runtime/parts.ts';

/**
 * For pages that bundle the widget as ES modules (apps, tests): registers both elements, with the
 * lazy parts loaded by `import()` (the bundler splits them). The script-tag build uses `startWidget`, the
 * extension `defineBundledElements`.
 */
export function defineElements(): void {
  setPartLoader(modulePartLoader);
  defineTags();
}
