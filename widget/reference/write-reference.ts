// `npm run docs`: writes docs/reference.md from the built widget's custom-elements.json (run `npm run build:widget`
// first; `npm test` builds before it checks the file is current).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { widgetVersion } from '../base/widget-version.ts';
import { referenceMarkdown, type ReferenceManifest } from './reference-markdown.ts';

export const referencePath = fileURLToPath(new URL('../../docs/reference.md', import.meta.url));
const manifestPath = fileURLToPath(new URL('../../dist/widget/custom-elements.json', import.meta.url));

/** The reference as the current build makes it. */
export function currentReference(): string {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as ReferenceManifest;
  return referenceMarkdown(manifest, widgetVersion);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(referencePath, currentReference());
  console.log(`Wrote ${referencePath}`);
}
