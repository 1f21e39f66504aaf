// `npm run docs`: writes docs/configuration.md from the proxy's configuration table.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configurationMarkdown } from './config-docs.ts';
import { proxyOptions } from './config-table.ts';
import { crossChecks } from './cross-checks.ts';

export const configurationPath = fileURLToPath(new URL('../../../docs/configuration.md', import.meta.url));

/** The page as the current table makes it (before Prettier). */
export function currentConfiguration(): string {
  return configurationMarkdown(proxyOptions, crossChecks);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(configurationPath, currentConfiguration());
  console.log(`Wrote ${configurationPath}`);
}
