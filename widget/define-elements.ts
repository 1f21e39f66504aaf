import { defineTags } from './define-tags.ts';

/**
 * For pages and apps that bundle the widget as ES modules (and tests): registers both elements (resolves once the
 * list's is too); the page's store
 * reads through the proxy, and languages and the list's body load with `import()` (the bundler splits them). The
 * script-tag and iframe builds go through `page-widget.ts`.
 */
export function defineElements(): Promise<void> {
  return defineTags();
}
