// @vitest-environment node
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { widgetVersion } from './widget-version.ts';

describe('the widget version', () => {
  it('is the repository’s version: the proxy pins /widget/v<it>/ and the npm package carries it', () => {
    const rootPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(widgetVersion).toBe(rootPackage.version);
  });
});
