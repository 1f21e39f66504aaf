// A partner's extension configuration (extension.config.json) read by the build: a combination that cannot work is
// refused before anything is built, every problem at once, and Firefox gets the partner's add-on id. The build itself,
// loaded into Chromium and linted for Firefox, is test/browser/extension-partner.test.ts.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { partnerConfigProblems, readPartnerConfig } from '../../extension/build/partner-config.ts';
import { extensionManifest } from '../../extension/vite.extension.ts';
import { riversideExtension as partner, writePartnerExtensionConfig } from '../support/partner-extension.ts';

const { folder, configPath } = writePartnerExtensionConfig();

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('a partner extension configuration', () => {
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
});
