// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { signInPath } from '../../src/contracts/proxy-paths.ts';
import { enPhases } from '../i18n/en-phases.ts';
import { ensureWidgetBuilt } from '../../test/support/vite-build.ts';
import { readWidgetFiles } from './widget-files.ts';

const dist = fileURLToPath(new URL('../../dist/widget/', import.meta.url));
/**
 * The budget for the code a script-tag card needs before it paints its poll, whatever the phase: 20,606 B gzip (level
 * 9, each file on its own; docs/decisions/0039-first-paint-budget-20606-for-drawn-current-cards.md).
 */
const budgetBytes = 20_606;

describe('the code a script-tag card needs', () => {
  it(
    'stays within 20,606 B gzip, with everything every phase’s first paint needs, the voting after it',
    { timeout: 120_000 },
    () => {
      ensureWidgetBuilt();
      const files = readWidgetFiles().scriptTagCard;
      const code = files.map((file) => readFileSync(dist + file));
      const gzipBytes = code.reduce((sum, bytes) => sum + gzipSync(bytes, { level: 9 }).length, 0);
      // The proxy client (its CSRF header, `Retry-After`), the proxy's routes and the live store are in it, and so are
      // the words of every phase's first paint (no phase waits for a chunk). What a click needs is in the details
      // chunk, the proxy's vote channel too, whose sign-in popup opens straight from the click once that chunk is
      // here, and the extension's bridge in a chunk of its own: both imported as the card's voting starts, after its
      // first paint.
      const text = code.map(String).join('\n');
      const firstPaint = [enPhases.closed, enPhases.cancelledNote, enPhases.votingClosed];
      for (const needed of ['X-Fan-Polls-Request', 'Retry-After', signInPath, ...firstPaint])
        expect.soft(text.toLowerCase(), needed).toContain(needed.toLowerCase());
      expect.soft(text, 'the extension bridge').not.toContain('fan-polls-extension');
      const signInPopup = 'fan-polls-sign-in';
      expect.soft(text, 'the vote channel').not.toContain(signInPopup);
      const details = /card-details-[\w-]+\.js/.exec(text)?.[0];
      expect(details, 'the details chunk the element code imports').toBeDefined();
      expect
        .soft(readFileSync(`${dist}chunks/${details}`, 'utf8'), 'the vote channel')
        .toContain(signInPopup);
      expect(files[0]).toBe('fan-polls.js');
      expect(gzipBytes, `${files.join(' + ')}: ${gzipBytes} B gzip`).toBeLessThanOrEqual(budgetBytes);
    },
  );
});
