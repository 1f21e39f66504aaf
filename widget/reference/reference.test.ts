// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { ensureWidgetBuilt } from '../../test/support/vite-build.ts';
import { trackingParameterNames } from '../../src/contracts/tracking.ts';
import { proxyOptions } from '../../src/proxy/config/config-table.ts';
import { iframeParameters, proxySettings } from './embed-settings.ts';
import { frameLinkNames } from '../iframe/frame-card-settings.ts';
import { currentReference, referencePath } from './write-reference.ts';

const source = (path: string): string => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('docs/reference.md', () => {
  it(
    'is what `npm run docs` writes from the current elements (run it after changing their JSDoc)',
    { timeout: 120_000 },
    async () => {
      ensureWidgetBuilt();
      const expected = await format(currentReference(), {
        ...(await resolveConfig(referencePath)),
        filepath: referencePath,
      });
      expect(readFileSync(referencePath, 'utf8'), 'docs/reference.md is stale: run `npm run docs`').toBe(
        expected,
      );
    },
  );

  it('lists exactly the URL parameters the iframe page reads', () => {
    // One function reads them, for the page's script and for the proxy that draws the page's card.
    const page = source('../iframe/frame-card-settings.ts');
    const read = [...page.matchAll(/params\.get\('([^']+)'\)/g)].map((match) => match[1]);
    // The tracking parameters and the partner's links are read in loops over their names.
    expect(page).toContain('for (const key of trackingParameterNames)');
    expect(page).toContain('for (const key of frameLinkNames)');
    expect(iframeParameters.map((parameter) => parameter.name).sort()).toEqual(
      [...new Set([...read, ...trackingParameterNames, ...frameLinkNames])].sort(),
    );
  });

  it('names proxy settings the proxy reads', () => {
    const read = Object.values(proxyOptions).map((option) => option.env);
    for (const setting of proxySettings) expect(read, setting.name).toContain(setting.name);
  });
});
