// The extension's build: `vite build --mode extension-chrome` / `--mode extension-firefox` (see the root vite.config.ts).
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, UserConfig } from 'vite';
import { geckoExtensionId } from '../src/local-defaults.ts';
import { zipDirectory } from './build/zip-directory.ts';

export type ExtensionTarget = 'chrome' | 'firefox';

const extensionFolder = dirname(fileURLToPath(import.meta.url));
const repository = resolve(extensionFolder, '..');

/** Firefox's id, pinned like Chromium's `key`; Firefox derives its redirect URL from it (`local-defaults.ts`). */
export const geckoId = geckoExtensionId;

/**
 * Firefox's data-collection consent (required of new add-ons): the extension sends the fan's sign-in (the
 * authorization code, then the refresh token) to the partner proxy and the access token to the platform, and
 * nothing else about the fan or the pages visited. The key needs Firefox 140 (the oldest supported ESR), hence the
 * minimum version.
 */
export const firefoxDataCollection = { required: ['authenticationInfo'] } as const;

type Manifest = Record<string, unknown> & { background: { service_worker: string } };

/** The root manifest.json for Chromium; for Firefox the same with `background.scripts` and a gecko id, no `key`. */
export function extensionManifest(target: ExtensionTarget): Manifest {
  const manifest = JSON.parse(readFileSync(resolve(repository, 'manifest.json'), 'utf8')) as Manifest;
  if (target === 'chrome') return manifest;
  const { key: _key, minimum_chrome_version: _minimum, background, ...rest } = manifest;
  return {
    ...rest,
    background: { scripts: [background.service_worker], type: 'module' },
    browser_specific_settings: {
      gecko: { id: geckoId, strict_min_version: '140.0', data_collection_permissions: firefoxDataCollection },
    },
  } as unknown as Manifest;
}

function zipForStores(target: ExtensionTarget, outDir: string): Plugin {
  return {
    name: 'fan-polls:zip-extension',
    apply: 'build',
    async closeBundle() {
      const zipPath = resolve(repository, `dist/extension/fan-polls-${target}.zip`);
      const count = await zipDirectory(outDir, zipPath);
      this.info(`zipped ${count} files into ${zipPath}`);
    },
  };
}

export function extensionBuild(target: ExtensionTarget): UserConfig {
  const outDir = resolve(repository, `dist/extension/${target}`);
  return {
    root: extensionFolder,
    publicDir: resolve(repository, 'public/extension'),
    plugins: [
      crx({ manifest: extensionManifest(target) as unknown as ManifestV3Export, browser: target }),
      zipForStores(target, outDir),
    ],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      // The approval window is opened by the background, not named in the manifest.
      rollupOptions: { input: { approve: resolve(extensionFolder, 'approve.html') } },
    },
  };
}
