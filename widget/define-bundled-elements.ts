import { defineTags } from './define-tags.ts';
import { bundledPartLoader } from './runtime/bundled-part-loader.ts';
import { setPartLoader } from './runtime/parts.ts';

/**
 * For the extension's pages: registers both elements with every lazy part bundled into the same script, so the
 * build emits no extra chunk and nothing loads later (the extension is not size-constrained).
 */
export function defineBundledElements(): void {
  setPartLoader(bundledPartLoader);
  defineTags();
}
