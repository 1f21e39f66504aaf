import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Facts two parts must agree on are defined once, in src/contracts/, and imported. A grep finds a second copy only
// when one thinks of looking; this test looks every time. The sandbox keeps its own copies on purpose (it pins the
// spec), and tests may spell values out.
const root = join(import.meta.dirname, '../..');
const production = ['src', 'widget', 'extension']
  .flatMap((folder) => filesUnder(join(root, folder)))
  .map((file) => relative(root, file).replaceAll('\\', '/'))
  .filter(
    (file) => !file.startsWith('src/sandbox/') && !/\.test\.ts$|\/testing\/|\/test-support\//.test(file),
  );

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === 'node_modules'
        ? []
        : filesUnder(join(folder, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(folder, entry.name)]
        : [],
  );
}

function filesMatching(pattern: RegExp): string[] {
  return production.filter((file) => pattern.test(readFileSync(join(root, file), 'utf8')));
}

describe('each shared fact has one owner', () => {
  it('scans the production sources', () => {
    expect(production).toContain('src/contracts/tracking.ts');
    expect(production.length).toBeGreaterThan(100);
  });

  it.each([
    ['the tracking parameter names', /['"]referrer['"],\s*['"]campaign['"]/, 'src/contracts/tracking.ts'],
    ['the printable-value rule', /\\p\{C\}|\\u0000-\\u001f/, 'src/contracts/tracking.ts'],
    [
      'what counts as loopback',
      /['"]\[::1\]['"]|hostname === ['"]localhost['"]/,
      'src/contracts/loopback.ts',
    ],
    ['isRecord', /function isRecord\b|const isRecord\b/, 'src/contracts/is-record.ts'],
    ['HTML escaping', /&quot;|&#\$\{|&#39;/, 'src/contracts/html-escape.ts'],
    ['the CSRF header', /X-Fan-Polls-Request/i, 'src/contracts/proxy-contract.ts'],
  ])('%s', (_fact, pattern, owner) => {
    expect(filesMatching(pattern)).toEqual([owner]);
  });

  it('has the widget and the extension call the proxy only through its client', () => {
    const callers = filesMatching(/\bfetch\(|AbortSignal\.timeout\(|csrfHeaderName/).filter((file) =>
      /^(widget|extension|src\/polls)\//.test(file),
    );
    // The worker's global fetch, handed to the clients; the configurator's page reading its own settings file; the
    // entry's prefetch and its read of a card the proxy drew, kept out of the client so that the entry stays small
    // (each the request the page's preload made: same URL, credentials and headers); the
    // live store's poll source, which calls through the client and wraps the fetch it hands it only to read each
    // answer's freshness headers (`Age`, `Cache-Control`). The analytics beacon: sent without credentials or a header
    // of the client's (no cookie, no preflight), outliving the page (`keepalive`), its answer never read. The session
    // frame, which calls through the client and wraps the fetch it hands it only to add its credential's header.
    expect(callers.sort()).toEqual([
      'extension/background/service-worker.ts',
      'src/polls/proxy-source.ts',
      'widget/analytics/seen-beacons.ts',
      'widget/configurator/fan-polls-configurator.ts',
      'widget/delivery/drawn-cards.ts',
      'widget/delivery/prefetch.ts',
      'widget/iframe/session-frame.ts',
    ]);
  });
});
