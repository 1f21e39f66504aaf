import { readFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { proxyOptions } from './config-table.ts';
import { configurationPath, currentConfiguration } from './write-config-docs.ts';

describe('docs/configuration.md', () => {
  it('is what `npm run docs` writes from the configuration table (run it after changing the table)', async () => {
    const expected = await format(currentConfiguration(), {
      ...(await resolveConfig(configurationPath)),
      filepath: configurationPath,
    });
    expect(
      readFileSync(configurationPath, 'utf8'),
      'docs/configuration.md is stale: run `npm run docs`',
    ).toBe(expected);
  });

  it('has one row per variable, each named once in the table', () => {
    const names = Object.values(proxyOptions).map((option) => option.env);
    expect(new Set(names).size).toBe(names.length);
    const page = readFileSync(configurationPath, 'utf8');
    for (const name of names) expect(page, name).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
  });
});
