// The npm package `fan-polls`, built into its own folder (`dist/package/`) from the widget's sources: ES modules for
// bundlers (Lit, @lit/react and React stay imports), declarations, the elements' manifest, and a package.json whose
// version is the repository's. The repository's own package.json stays the private development project.
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Plugin, UserConfig } from 'vite';
import { packageJson, packageEntries } from './package-json.ts';
import { licenceFileName, licenceNotices, noticesFileName } from '../../src/dev/licence-notices.ts';
import { packageManifest } from './package-manifest.ts';
import { hydrateFileName } from '../ssr/hydrate-file-name.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const packageFolder = fileURLToPath(new URL('.', import.meta.url));
const outDir = root + 'dist/package/';

/** `vite build --mode package` (after `build:widget`, whose `custom-elements.json` it takes). */
export function packageBuild(): UserConfig {
  return {
    publicDir: false,
    logLevel: 'warn',
    plugins: [packageFiles(), licenceNotices('package')],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // A library: the app's bundler minifies. Readable code, and no Lit template minifier needed.
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      lib: {
        entry: Object.fromEntries(packageEntries.map((entry) => [entry.name, packageFolder + entry.source])),
        formats: ['es'],
      },
      rolldownOptions: {
        external: (id) => /^(lit|@lit\/|react($|\/)|@lit-labs\/)/.test(id),
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  };
}

function packageFiles(): Plugin {
  return {
    name: 'fan-polls-package-files',
    apply: 'build',
    async closeBundle() {
      await writeDeclarations();
      const widgetManifest = JSON.parse(
        await readFile(root + 'dist/widget/custom-elements.json', 'utf8'),
      ) as unknown;
      await writeJson(outDir + 'custom-elements.json', packageManifest(widgetManifest));
      const rootPackage = JSON.parse(await readFile(root + 'package.json', 'utf8')) as Record<
        string,
        unknown
      >;
      await writeJson(outDir + 'package.json', packageJson(rootPackage));
      await copyBrowserBuild();
      await copyFile(packageFolder + 'README.md', outDir + 'README.md');
      await copyFile(root + 'CHANGELOG.md', outDir + 'CHANGELOG.md');
      // The reference the README points to; its link to ../CHANGELOG.md holds in the package too.
      await mkdir(outDir + 'docs');
      await copyFile(root + 'docs/reference.md', outDir + 'docs/reference.md');
    },
  };
}

/**
 * `cdn/`: the widget's script-tag build as the proxy serves it (Lit included, minified, relative chunk imports only;
 * with `fan-polls-hydrate.js`, which the entry imports for a card the proxy drew), for plain pages and CDNs:
 * `<script type="module" src=".../fan-polls@<version>/cdn/fan-polls.js" data-proxy=...>`.
 * The iframe banner is not in it: its page must come from the proxy. It bundles Lit, so Lit's notices go with it
 * (the widget build's `THIRD-PARTY-NOTICES.txt`, as the proxy serves it), where a CDN lists the folder.
 */
async function copyBrowserBuild(): Promise<void> {
  await mkdir(outDir + 'cdn');
  for (const entry of ['fan-polls.js', hydrateFileName])
    await copyFile(root + 'dist/widget/' + entry, outDir + 'cdn/' + entry);
  await cp(root + 'dist/widget/chunks', outDir + 'cdn/chunks', { recursive: true });
  for (const file of [licenceFileName, noticesFileName])
    await copyFile(`${root}dist/widget/${file}`, `${outDir}cdn/${file}`);
}

/** `tsc` emits the declarations of every module the entries reach; their `.ts` imports then name `.js` files. */
async function writeDeclarations(): Promise<void> {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', packageFolder + 'tsconfig.package.json'], {
    cwd: root,
  });
  for (const file of await readdir(outDir + 'types', { recursive: true })) {
    if (!file.endsWith('.d.ts')) continue;
    const path = `${outDir}types/${file}`;
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace(/(from |import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(value, null, 2) + '\n');
}
