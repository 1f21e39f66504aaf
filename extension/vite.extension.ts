// The extension's build: `vite build --mode extension-chrome` / `--mode extension-firefox` (see the root vite.config.ts).
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin, UserConfig } from 'vite';
import { geckoExtensionId } from '../src/local-defaults.ts';
import { licenceNotices } from '../src/dev/licence-notices.ts';
import {
  partnerConfigPath,
  partnerManifest,
  partnerSettings,
  readPartnerConfig,
  type PartnerExtensionConfig,
} from './build/partner-config.ts';
import { zipForStore } from './build/store-zip.ts';

export type ExtensionTarget = 'chrome' | 'firefox';

const extensionFolder = dirname(fileURLToPath(import.meta.url));
const repository = resolve(extensionFolder, '..');

/**
 * Firefox's add-on id, pinned like Chromium's `key`; Firefox derives its redirect URL from it. Configuration: the id
 * addons.mozilla.org lists the add-on under (`FAN_POLLS_FIREFOX_ADDON_ID` at build time), else the development id
 * the sandbox and the proxy register by default (`local-defaults.ts`).
 */
export const geckoId = process.env['FAN_POLLS_FIREFOX_ADDON_ID']?.trim() || geckoExtensionId;

/**
 * Firefox's data-collection consent (required of new add-ons): the extension sends the fan's sign-in (the
 * authorization code, then the refresh token) to the partner proxy and the access token to the platform, and
 * nothing else about the fan or the pages visited. The key needs Firefox 140 (the oldest supported ESR), hence the
 * minimum version.
 */
const firefoxDataCollection = { required: ['authenticationInfo'] } as const;

type Manifest = Record<string, unknown> & { background: { service_worker: string } };

/** The root manifest.json for Chromium; for Firefox the same with `background.scripts` and a gecko id, no `key`. */
export function extensionManifest(target: ExtensionTarget, partner?: PartnerExtensionConfig): Manifest {
  const source = JSON.parse(readFileSync(resolve(repository, 'manifest.json'), 'utf8')) as Manifest;
  // A partner's build: its name and hosts; no development key (the store assigns the Chromium id).
  const manifest = partner ? (storeManifest(partnerManifest(source, partner)) as Manifest) : source;
  if (target === 'chrome') return manifest;
  const { key: _key, minimum_chrome_version: _minimum, background, ...rest } = manifest;
  return {
    ...rest,
    background: { scripts: [background.service_worker], type: 'module' },
    browser_specific_settings: {
      gecko: {
        id: partner?.firefoxAddonId ?? geckoId,
        strict_min_version: '140.0',
        data_collection_permissions: firefoxDataCollection,
      },
    },
  } as unknown as Manifest;
}

/**
 * The page bridge is registered at run time from the background (`?script` import), and @crxjs makes such scripts
 * web-accessible to every site, which lets any page probe for the extension. A content script needs no
 * web-accessible file: drop them, and the plugin's unreferenced intermediate chunk of the script.
 */
function nothingWebAccessible(): Plugin & {
  renderCrxManifest: (manifest: Record<string, unknown>) => unknown;
} {
  return {
    name: 'fan-polls:nothing-web-accessible',
    apply: 'build',
    enforce: 'post',
    renderCrxManifest(manifest) {
      delete manifest['web_accessible_resources'];
      return manifest;
    },
    generateBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (fileName.startsWith('assets/page-bridge.iife.ts-')) Reflect.deleteProperty(bundle, fileName);
      }
    },
  };
}

/** The manifest as the store gets it: no `key` (the store assigns the id; the key pins it for development only). */
export function storeManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const { key: _key, ...store } = manifest;
  return store;
}

function zipForStores(target: ExtensionTarget, outDir: string, partner: boolean): Plugin {
  return {
    name: 'fan-polls:zip-extension',
    apply: 'build',
    async closeBundle() {
      const zipPath = resolve(outDir, '..', `fan-polls-${target}.zip`);
      await zipForStore(
        outDir,
        zipPath,
        (text) => `${JSON.stringify(storeManifest(JSON.parse(text) as Record<string, unknown>), null, 2)}\n`,
      );
      this.info(`zipped ${outDir} into ${zipPath}`);
      if (target === 'firefox' && !partner && geckoId === geckoExtensionId) {
        this.info(
          `the Firefox zip carries the development add-on id ${geckoId}: set FAN_POLLS_FIREFOX_ADDON_ID for the store`,
        );
      }
    },
  };
}

/**
 * `FAN_POLLS_EXTENSION_OUT_DIR` builds into `<it>/<target>` (and the zips beside), for a partner's or a test's build;
 * the default is `dist/extension/`.
 */
export function extensionBuild(target: ExtensionTarget): UserConfig {
  const outRoot = process.env['FAN_POLLS_EXTENSION_OUT_DIR']?.trim() || resolve(repository, 'dist/extension');
  const outDir = resolve(outRoot, target);
  const configPath = partnerConfigPath(repository, process.env);
  const partner = configPath === undefined ? undefined : readPartnerConfig(configPath);
  let publicDir = resolve(repository, 'public/extension');
  if (partner) {
    // The partner's icons where the manifest names them (`icons/icon-<size>.png`).
    publicDir = mkdtempSync(resolve(tmpdir(), 'fan-polls-extension-public-'));
    cpSync(partner.iconsFolder, resolve(publicDir, 'icons'), { recursive: true });
  }
  return {
    root: extensionFolder,
    publicDir,
    // The Options defaults (`extension/shared/settings.ts`): the partner's, else the built-in sandbox ones.
    define: {
      __FAN_POLLS_PARTNER_SETTINGS__: partner ? JSON.stringify(partnerSettings(partner)) : 'undefined',
    },
    plugins: [
      crx({ manifest: extensionManifest(target, partner) as unknown as ManifestV3Export, browser: target }),
      nothingWebAccessible(),
      licenceNotices(`extension-${target}`),
      zipForStores(target, outDir, partner !== undefined),
    ],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      // The confirmation window is opened by the background, not named in the manifest.
      rollupOptions: {
        input: { confirm: resolve(extensionFolder, 'confirm.html') },
        // Lit in a chunk of its own, named so: addons-linter's one accepted warning (Lit's template innerHTML) is
        // recognised by file name (extension-firefox.test.ts).
        output: {
          // Licence comments kept (Lit's `@license` BSD-3-Clause headers); THIRD-PARTY-NOTICES.txt has the texts.
          comments: { legal: true, annotation: false, jsdoc: false },
          advancedChunks: {
            groups: [{ name: 'lit', test: /[\\/]node_modules[\\/](lit|lit-html|lit-element|@lit)[\\/]/ }],
          },
        },
      },
    },
  };
}
