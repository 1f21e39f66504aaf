// A partner's extension configuration as a club writes it (docs/extension-store.md), in a temporary folder with its
// icons, and its build for either browser from that file into that folder.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { viteBuild } from './vite-build.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Riverside FC's extension: its names, icons, proxy, platform, application and Firefox add-on id. */
export const riversideExtension = {
  name: 'Riverside FC Polls',
  shortName: 'Riverside',
  icons: 'brand-icons',
  proxyUrl: 'https://polls.riverside.example',
  platformAuthUrl: 'https://auth.platform.example',
  platformApiUrl: 'https://api.platform.example',
  clientId: 'riverside-app',
  partnerTag: 'riverside',
  firefoxAddonId: 'polls@riverside.example',
} as const;

export interface PartnerExtensionFolder {
  /** The folder: `extension.config.json`, `brand-icons/`, and the builds under `dist/`. */
  readonly folder: string;
  readonly configPath: string;
  /** `dist/<target>/` of the partner's build, and its store zip `dist/fan-polls-<target>.zip`. */
  readonly outDir: string;
}

/** Writes Riverside's `extension.config.json` and icons (the repository's, as the brand's) into a new folder. */
export function writePartnerExtensionConfig(): PartnerExtensionFolder {
  const folder = mkdtempSync(join(tmpdir(), 'fan-polls-partner-extension-'));
  cpSync(`${root}public/extension/icons`, join(folder, riversideExtension.icons), { recursive: true });
  const configPath = join(folder, 'extension.config.json');
  writeFileSync(configPath, JSON.stringify(riversideExtension, null, 2));
  return { folder, configPath, outDir: join(folder, 'dist') };
}

/** `npm run build:extension`'s build for one browser with the partner's file, into the partner's folder. */
export function buildPartnerExtension(partner: PartnerExtensionFolder, target: 'chrome' | 'firefox'): void {
  viteBuild(`extension-${target}`, {
    FAN_POLLS_EXTENSION_CONFIG: partner.configPath,
    FAN_POLLS_EXTENSION_OUT_DIR: partner.outDir,
  });
}
