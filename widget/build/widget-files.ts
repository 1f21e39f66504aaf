import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Beside `dist/widget/`, not in it (not served): which built files a script-tag card loads before it renders. */
export const widgetFilesPath = fileURLToPath(new URL('../../dist/widget-files.json', import.meta.url));

export interface WidgetFiles {
  /** Paths in `dist/widget/`: the entry, the element code and the chunks it imports statically. */
  readonly scriptTagCard: readonly string[];
}

export function readWidgetFiles(): WidgetFiles {
  return JSON.parse(readFileSync(widgetFilesPath, 'utf8')) as WidgetFiles;
}
