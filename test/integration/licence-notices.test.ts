// The project's MIT licence and the third-party notices of what each artefact bundles, read from the artefacts as a
// partner gets them: the widget as the proxy serves it, the npm package as `npm pack` packs it, both store zips.
// Needs the builds (`npm test` runs them first).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareImageFontFiles } from '../../src/node/share-image-assets.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const licence = readFileSync(root + 'LICENSE', 'utf8');
/** Lit's three packages, as a notices file names them: name, version, licence. */
const litNotices = [
  /^@lit\/reactive-element \S+ \(BSD-3-Clause\)$/m,
  /^lit-element \S+ \(BSD-3-Clause\)$/m,
  /^lit-html \S+ \(BSD-3-Clause\)$/m,
];

function expectLitNotices(notices: string): void {
  for (const notice of litNotices) expect(notices).toMatch(notice);
  // The licence text itself, not only its name.
  expect(notices).toContain('Redistributions in binary form must reproduce the above copyright notice');
}

it('the repository is MIT-licensed, in LICENSE and both package.json files', () => {
  expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) 2026 Fan Polls contributors\n/);
  const rootPackage = JSON.parse(readFileSync(root + 'package.json', 'utf8')) as { license?: string };
  const npmPackage = JSON.parse(readFileSync(root + 'dist/package/package.json', 'utf8')) as {
    license?: string;
  };
  expect(rootPackage.license).toBe('MIT');
  expect(npmPackage.license).toBe('MIT');
});

it('the share image’s font and renderers are production dependencies, installed with their licences', () => {
  const rootPackage = JSON.parse(readFileSync(root + 'package.json', 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const installed = (name: string) =>
    JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, 'utf8')) as { license?: string };
  // `npm ci --omit=dev` installs each with its licence: the proxy's server build bundles none of them.
  for (const name of ['@fontsource/inter', 'satori', '@resvg/resvg-wasm']) {
    expect(Object.keys(rootPackage.dependencies)).toContain(name);
  }
  expect(installed('@fontsource/inter').license).toBe('OFL-1.1');
  expect(readFileSync(`${root}node_modules/@fontsource/inter/LICENSE`, 'utf8')).toContain(
    'This Font Software is licensed under the SIL Open Font License, Version 1.1.',
  );
  // The font files the renderer reads are that package's.
  for (const { file } of shareImageFontFiles) expect(file.startsWith('@fontsource/inter/files/')).toBe(true);
  expect(installed('satori').license).toBe('MPL-2.0');
  expect(readFileSync(`${root}node_modules/satori/LICENSE`, 'utf8')).toContain('Mozilla Public License');
  expect(installed('@resvg/resvg-wasm').license).toBe('MPL-2.0');
});

describe('the widget, as the proxy serves it', () => {
  let stack: SandboxAndProxy;

  beforeAll(async () => {
    stack = await startSandboxAndProxy({ proxy: { env: { FAN_POLLS_WIDGET_DIR: root + 'dist/widget' } } });
  });

  afterAll(async () => {
    await stack.close();
  });

  it('serves the licence and the notices of Lit, which its element code bundles, as text', async () => {
    const served = await fetch(`${stack.proxy.url}/widget/LICENSE.txt`);
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await served.text()).toBe(licence);
    const notices = await fetch(`${stack.proxy.url}/widget/THIRD-PARTY-NOTICES.txt`);
    expect(notices.status).toBe(200);
    expectLitNotices(await notices.text());
  });
});

it('the npm package, as `npm pack` packs it, carries the licence and notices, and Lit’s beside its browser build', () => {
  const folder = mkdtempSync(join(tmpdir(), 'fan-polls-packed-'));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {
        cwd: root + 'dist/package/',
        encoding: 'utf8',
      }),
    ) as [{ filename: string }];
    const read = (path: string): string =>
      execFileSync('tar', ['-xzOf', join(folder, packed.filename), `package/${path}`], { encoding: 'utf8' });
    expect(read('LICENSE.txt')).toBe(licence);
    // Its modules import Lit (a dependency) and bundle no third-party code ...
    expect(read('THIRD-PARTY-NOTICES.txt')).toContain('this build bundles no third-party code');
    // ... but its self-contained browser build (cdn/) bundles Lit: Lit's notices go with it.
    expect(read('cdn/LICENSE.txt')).toBe(licence);
    expectLitNotices(read('cdn/THIRD-PARTY-NOTICES.txt'));
    expect(read('cdn/fan-polls.js')).toBe(readFileSync(root + 'dist/widget/fan-polls.js', 'utf8'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 60_000);

describe.each(['chrome', 'firefox'])('the %s store zip', (target) => {
  const zip = `${root}dist/extension/fan-polls-${target}.zip`;
  const unzip = (...args: string[]): string => execFileSync('unzip', args, { encoding: 'utf8' });

  it('carries the licence, the notices of everything it bundles, and Lit’s licence comments', () => {
    expect(unzip('-p', zip, 'LICENSE.txt')).toBe(licence);
    const notices = unzip('-p', zip, 'THIRD-PARTY-NOTICES.txt');
    expectLitNotices(notices);
    expect(notices).toMatch(/^oauth4webapi \S+ \(MIT\)$/m);
    expect(notices).toMatch(/^webextension-polyfill \S+ \(MPL-2\.0\)$/m);
    const lit = unzip('-Z1', zip)
      .split('\n')
      .find((name) => /^assets\/lit-[\w-]+\.js$/.test(name));
    expect(unzip('-p', zip, lit!)).toMatch(
      /@license\s+\*?\s*Copyright \d{4} Google LLC\s+\*?\s*SPDX-License-Identifier: BSD-3-Clause/,
    );
  });
});
