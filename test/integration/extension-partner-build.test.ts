// A partner's extension from one configuration file: `npm run build:extension` with FAN_POLLS_EXTENSION_CONFIG,
// built into a temporary folder. Its manifest carries the partner's name and hosts, its Options defaults are the
// partner's proxy and platform, and a configuration that cannot work is refused before anything is built.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { partnerConfigProblems, readPartnerConfig } from '../../extension/build/partner-config.ts';
import { extensionManifest } from '../../extension/vite.extension.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'fan-polls-partner-extension-'));
cpSync(`${root}public/extension/icons`, join(folder, 'brand-icons'), { recursive: true });

const partner = {
  name: 'Riverside FC Polls',
  shortName: 'Riverside',
  icons: 'brand-icons',
  proxyUrl: 'https://polls.riverside.example',
  platformAuthUrl: 'https://auth.platform.example',
  platformApiUrl: 'https://api.platform.example',
  clientId: 'riverside-app',
  partnerTag: 'riverside',
  firefoxAddonId: 'polls@riverside.example',
};
const configPath = join(folder, 'extension.config.json');
writeFileSync(configPath, JSON.stringify(partner));

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('a partner extension build from extension.config.json', () => {
  it('refuses combinations that cannot work, all at once', () => {
    const problems = partnerConfigProblems(
      {
        ...partner,
        proxyUrl: 'http://polls.riverside.example',
        shortName: 'Riverside Football Club',
        firefoxAddonId: 'x',
      },
      folder,
    );
    expect(problems).toEqual([
      'shortName is longer than 12 characters.',
      expect.stringContaining('proxyUrl "http://polls.riverside.example" is plain http on another machine'),
      expect.stringContaining('firefoxAddonId'),
    ]);
    expect(partnerConfigProblems({ ...partner, proxyUrl: 'http://localhost:8787' }, folder)).toEqual([]);
    expect(partnerConfigProblems({ ...partner, icons: 'no-such-folder' }, folder)).toHaveLength(4);
  });

  it('gives Firefox the partner’s add-on id', () => {
    const firefox = extensionManifest('firefox', readPartnerConfig(configPath));
    expect(firefox['browser_specific_settings']).toMatchObject({ gecko: { id: 'polls@riverside.example' } });
    expect(firefox['name']).toBe('Riverside FC Polls');
  });

  it('builds the Chromium extension with the partner’s manifest and Options defaults', async () => {
    const out = join(folder, 'dist');
    await run('npx', ['vite', 'build', '--mode', 'extension-chrome'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        FAN_POLLS_EXTENSION_CONFIG: configPath,
        FAN_POLLS_EXTENSION_OUT_DIR: out,
      },
    });
    const manifest = JSON.parse(readFileSync(join(out, 'chrome/manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest).toMatchObject({
      name: 'Riverside FC Polls',
      short_name: 'Riverside',
      action: { default_title: 'Riverside FC Polls' },
      host_permissions: [
        'https://polls.riverside.example/*',
        'https://auth.platform.example/*',
        'https://api.platform.example/*',
      ],
    });
    expect(manifest['key']).toBeUndefined();
    expect(readdirSync(join(out, 'chrome/icons')).sort()).toEqual([
      'icon-128.png',
      'icon-16.png',
      'icon-32.png',
      'icon-48.png',
    ]);
    // The Options defaults are built in: the partner's URLs and application, not the sandbox's.
    const code = readdirSync(join(out, 'chrome'), { recursive: true })
      .filter((file) => String(file).endsWith('.js'))
      .map((file) => readFileSync(join(out, 'chrome', String(file)), 'utf8'))
      .join('\n');
    expect(code).toContain('https://polls.riverside.example');
    expect(code).toContain('riverside-app');
    expect(code).not.toContain('fan-polls-demo');
    expect(readdirSync(out)).toContain('fan-polls-chrome.zip');
  }, 240_000);
});
