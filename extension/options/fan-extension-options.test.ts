import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings, settingsItem } from '../shared/settings.ts';
import { FakeStorageArea } from '../testing/fake-browser.ts';
import { FanExtensionOptions } from './fan-extension-options.ts';

afterEach(() => {
  document.body.innerHTML = '';
});

function mount(stored?: Record<string, unknown>) {
  const area = new FakeStorageArea();
  if (stored) area.items.set('settings', stored);
  const options = new FanExtensionOptions();
  options.store = settingsItem(area);
  const asked: string[][] = [];
  options.requestPermissions = (origins) => {
    asked.push(origins);
    return Promise.resolve(true);
  };
  document.body.append(options);
  return { options, area, asked };
}

const text = (options: FanExtensionOptions): string =>
  options.shadowRoot?.textContent.replace(/\s+/g, ' ') ?? '';

async function save(options: FanExtensionOptions, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    options.shadowRoot!.querySelector<HTMLInputElement>(`input[name="${name}"]`)!.value = value;
  }
  options.shadowRoot!.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
  await vi.waitFor(() => {
    expect(options.shadowRoot?.querySelector('[data-testid="options-message"]')).not.toBeNull();
  });
}

describe('the options page', () => {
  it('says nothing more with the shipped defaults', async () => {
    const { options } = mount();
    await vi.waitFor(() => {
      expect(options.shadowRoot?.querySelector('input[name="proxyUrl"]')).not.toBeNull();
    });
    expect(options.shadowRoot?.querySelector('[data-testid="options-changed"]')).toBeNull();
  });

  it('refuses plain http outside loopback, and keeps what was stored', async () => {
    const { options, area } = mount();
    await vi.waitFor(() => {
      expect(options.shadowRoot?.querySelector('form')).not.toBeNull();
    });
    await save(options, { proxyUrl: 'http://polls.club.example' });
    expect(text(options)).toContain('an https origin');
    expect(area.items.get('settings')).toBeUndefined();
  });

  it('takes a loopback proxy on http://[::1] without a permission, as the background does', async () => {
    const { options, area, asked } = mount();
    await vi.waitFor(() => {
      expect(options.shadowRoot?.querySelector('form')).not.toBeNull();
    });
    await save(options, { proxyUrl: 'http://[::1]:8787' });
    expect(text(options)).toContain('Saved.');
    expect(asked.flat()).not.toContain('http://[::1]:8787/*');
    expect(area.items.get('settings')).toMatchObject({ proxyUrl: 'http://[::1]:8787' });
  });

  it('asks for the new origin’s permission and warns that the values left the shipped defaults', async () => {
    const { options, area, asked } = mount();
    await vi.waitFor(() => {
      expect(options.shadowRoot?.querySelector('form')).not.toBeNull();
    });
    await save(options, { proxyUrl: 'https://polls.club.example' });
    expect(asked).toEqual([['https://polls.club.example/*']]);
    expect(area.items.get('settings')).toMatchObject({ proxyUrl: 'https://polls.club.example' });
    expect(options.shadowRoot?.querySelector('[data-testid="options-changed"]')?.textContent).toContain(
      'Partner proxy URL',
    );
    expect(defaultSettings.proxyUrl).not.toBe('https://polls.club.example');
  });
});
