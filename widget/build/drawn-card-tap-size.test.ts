// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureWidgetBuilt } from '../../test/support/vite-build.ts';
import { hydrateFileName } from '../ssr/hydrate-file-name.ts';
import { drawnCardTapBudgetBytes, firstPaintBytes } from './first-paint-bytes.ts';

const dist = fileURLToPath(new URL('../../dist/widget/', import.meta.url));

describe('the code a drawn card needs before a tap works', () => {
  it(
    'is `fan-polls-hydrate.js` alone, within its budget (22,100 B gzip, hashes blanked), the voting, languages and list in chunks after it',
    { timeout: 120_000 },
    () => {
      ensureWidgetBuilt();
      const code = readFileSync(dist + hydrateFileName, 'utf8');
      // One file: a static import would be one more round trip before the tap (the snippet preloads this file only).
      expect(code).not.toMatch(/\bfrom\s*["'`]/);
      expect(code).not.toMatch(/\bimport\s*["'`]/);
      // What comes after the card is live, each a chunk of the hydrating build's own (its Lit is this file's).
      const lazy = [...code.matchAll(/import\(`\.\/(chunks\/hydrate-[\w-]+\.js)`\)/g)].map(
        (match) => match[1]!,
      );
      const inChunks = ['card-details', 'define-list', 'extension-channel', 'live-stream', 'de', 'fr'];
      const inlined = inChunks.filter(
        (part) => !lazy.some((file) => file.startsWith(`chunks/hydrate-${part}-`)),
      );
      expect.soft(inlined, 'parts without a chunk of their own').toEqual([]);
      expect.soft(code, 'the vote channel').not.toContain('fan-polls-sign-in');
      expect.soft(code, 'the extension bridge').not.toContain('fan-polls-extension');
      const bytes = firstPaintBytes(dist, [hydrateFileName]);
      expect(
        bytes.hashesBlanked,
        `${hydrateFileName}: ${bytes.hashesBlanked} B gzip, hashes blanked (${bytes.served} B as served)`,
      ).toBeLessThanOrEqual(drawnCardTapBudgetBytes);
    },
  );
});
