// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { signInPath } from '../../src/contracts/proxy-paths.ts';
import { enPhases } from '../i18n/en-phases.ts';
import { ensureWidgetBuilt } from '../../test/support/vite-build.ts';
import { firstPaintBudgetBytes, firstPaintBytes } from './first-paint-bytes.ts';
import { readWidgetFiles } from './widget-files.ts';

const dist = fileURLToPath(new URL('../../dist/widget/', import.meta.url));

describe('the code a script-tag card needs', () => {
  it(
    'stays within its budget (20,630 B gzip, hashes blanked), with everything every phase’s first paint needs, the voting after it',
    { timeout: 120_000 },
    () => {
      ensureWidgetBuilt();
      const files = readWidgetFiles().scriptTagCard;
      const code = files.map((file) => readFileSync(dist + file));
      const bytes = firstPaintBytes(dist, files);
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
      expect(
        bytes.hashesBlanked,
        `${files.join(' + ')}: ${bytes.hashesBlanked} B gzip, hashes blanked (${bytes.served} B as served)`,
      ).toBeLessThanOrEqual(firstPaintBudgetBytes);
    },
  );
});
