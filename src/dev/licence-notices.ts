import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import license, { type Dependency } from 'rollup-plugin-license';
import type { Plugin } from 'vite';

/** The project's own licence, beside what it ships. */
export const licenceFileName = 'LICENSE.txt';
/** The licence and notice texts of every third-party package bundled in what it ships. */
export const noticesFileName = 'THIRD-PARTY-NOTICES.txt';

/**
 * Licences a bundled package may carry; anything else, or none, fails the build. MPL-2.0 is webextension-polyfill's
 * (in the extension): copyleft per file, met by shipping its files unmodified with this notice. OFL-1.1 is the fonts'
 * (the edge build bundles their packages' `unicode.json`): met by shipping the licence with them.
 */
const allowedLicences = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'MPL-2.0',
  'OFL-1.1',
]);

/** What a build has bundled so far, by package and version: the widget's entries are builds of their own. */
const bundled = new Map<string, Map<string, Dependency>>();

/**
 * A package published without its licence's text (a few of the edge build's, such as Lit's server DOM shim): who made
 * it and where, and the licence whose standard terms apply.
 */
function textlessNotice(dependency: Dependency): string {
  const author =
    typeof dependency.author === 'object' && dependency.author ? dependency.author.text() : undefined;
  const repository =
    typeof dependency.repository === 'string' ? dependency.repository : dependency.repository?.url;
  return [
    `The package ships no licence text. ${dependency.license ?? ''} terms: https://spdx.org/licenses/${dependency.license ?? ''}.html`,
    author ? `Author: ${author}` : '',
    repository ? `Source: ${repository}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function noticesText(dependencies: readonly Dependency[]): string {
  const header = [
    'Fan Polls bundles the following third-party packages, each under its own licence.',
    dependencies.length === 0 ? 'None: this build bundles no third-party code.' : '',
  ].filter(Boolean);
  const sections = [...dependencies]
    .sort((a, b) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`))
    .map((dependency) =>
      [
        `${dependency.name ?? '(unnamed)'} ${dependency.version ?? ''} (${dependency.license ?? 'no licence'})`,
        dependency.licenseText?.trim() ?? textlessNotice(dependency),
        dependency.noticeText?.trim() ?? '',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
  return [header.join('\n'), ...sections].join('\n\n' + '-'.repeat(80) + '\n\n') + '\n';
}

/**
 * Puts `LICENSE` and `THIRD-PARTY-NOTICES.txt` in the build's output, from the modules the bundle really holds
 * (rollup-plugin-license reads each one's package: name, version, licence, licence and NOTICE files), and fails the
 * build on a package whose licence is not on the list or has no text. `key` names the output that several builds add to.
 */
export function licenceNotices(key: string): Plugin {
  const seen = bundled.get(key) ?? new Map<string, Dependency>();
  bundled.set(key, seen);
  const scanner = license({
    thirdParty: (dependencies) => {
      for (const each of dependencies) {
        if (!each.license || !allowedLicences.has(each.license)) {
          throw new Error(
            `${each.name}@${each.version}: licence ${each.license ?? 'missing'} is not on the list`,
          );
        }
        seen.set(`${each.name}@${each.version}`, each);
      }
    },
  }) as unknown as {
    renderChunk: (code: string, chunk: unknown, options: unknown) => unknown;
    generateBundle: () => void;
  };
  return {
    name: 'fan-polls:licence-notices',
    apply: 'build',
    renderChunk(code, chunk, options) {
      scanner.renderChunk(code, chunk, { ...options, sourcemap: false });
      return null;
    },
    generateBundle() {
      scanner.generateBundle();
      this.emitFile({
        type: 'asset',
        fileName: licenceFileName,
        source: readFileSync(fileURLToPath(new URL('../../LICENSE', import.meta.url)), 'utf8'),
      });
      this.emitFile({ type: 'asset', fileName: noticesFileName, source: noticesText([...seen.values()]) });
    },
  };
}
