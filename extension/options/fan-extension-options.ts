import { css, html, LitElement, nothing } from 'lit';
import {
  defaultSettings,
  hostPatternsFor,
  normaliseServiceUrl,
  type ExtensionSettings,
} from '../shared/settings.ts';
import { extensionTheme } from '../shared/extension-theme.ts';
import type { TypedStorageItem } from '../shared/typed-storage.ts';
import { isLoopbackUrl } from '../../src/contracts/loopback.ts';
import { defaultBrand } from '../shared/default-brand.ts';

/** Asks for host permissions (optional_host_permissions); must run inside the click that saves. */
export type PermissionRequester = (origins: string[]) => Promise<boolean>;

type Field = keyof ExtensionSettings;

const fields: { key: Field; label: string; kind: 'url' | 'id' }[] = [
  { key: 'proxyUrl', label: 'Partner proxy URL', kind: 'url' },
  { key: 'platformApiUrl', label: 'Platform API URL ({base_url})', kind: 'url' },
  { key: 'platformAuthUrl', label: 'Platform OAuth URL ({auth_url})', kind: 'url' },
  { key: 'clientId', label: 'Application client id', kind: 'id' },
  { key: 'partnerTag', label: 'Partner tag', kind: 'id' },
];

/**
 * The options page: where the partner proxy and the platform are (the defaults this build shipped with: the local
 * sandbox unless the partner built it otherwise). Addresses are https (plain http on loopback only); others than
 * loopback need a host permission, asked for when saving. Values that leave the shipped defaults are named in a
 * warning: sign-in and votes go to these addresses.
 */
export class FanExtensionOptions extends LitElement {
  static override properties = {
    store: { attribute: false },
    requestPermissions: { attribute: false },
    values: { state: true },
    message: { state: true },
  };

  /** The extension's name from its manifest, set before the element connects (a partner's build names itself). */
  brand = defaultBrand;
  declare store: TypedStorageItem<ExtensionSettings> | undefined;
  declare requestPermissions: PermissionRequester | undefined;
  declare values: ExtensionSettings;
  declare message: string;

  constructor() {
    super();
    this.store = undefined;
    this.requestPermissions = undefined;
    this.values = defaultSettings;
    this.message = '';
  }

  static override styles = [
    extensionTheme,
    css`
      :host {
        max-width: 560px;
        padding: 16px;
      }
      label {
        display: block;
        margin: 8px 0;
      }
      input {
        display: block;
        width: 100%;
        box-sizing: border-box;
      }
    `,
  ];

  override connectedCallback(): void {
    super.connectedCallback();
    void this.store?.get().then((values) => {
      this.values = values;
    });
  }

  async #save(event: Event): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const raw = Object.fromEntries(
      fields.map(({ key }) => {
        const value = form.get(key);
        return [key, typeof value === 'string' ? value.trim() : ''];
      }),
    ) as Record<Field, string>;
    const next: Partial<Record<Field, string>> = {};
    for (const { key, label, kind } of fields) {
      const value =
        kind === 'url'
          ? normaliseServiceUrl(raw[key])
          : /^[\w.@-]{1,100}$/.test(raw[key])
            ? raw[key]
            : undefined;
      if (value === undefined) {
        this.message = `${label}: ${kind === 'url' ? 'an https origin (plain http on localhost, 127.x.x.x or [::1] only), no path' : 'letters, digits, . _ @ - only'}.`;
        return;
      }
      next[key] = value;
    }
    const settings = next as ExtensionSettings;
    const needed = hostPatternsFor(settings).filter((pattern) => !isLoopbackUrl(pattern.slice(0, -2)));
    // Before any other await: the browser grants permissions only inside the user's click.
    if (needed.length > 0 && !(await this.requestPermissions?.(needed))) {
      this.message = 'Not saved: the extension needs permission to reach these addresses.';
      return;
    }
    await this.store?.set(settings);
    this.values = settings;
    this.message = 'Saved.';
  }

  /** What differs from the defaults this build shipped with. */
  #renderChanged() {
    const changed = fields.filter(({ key }) => this.values[key] !== defaultSettings[key]);
    if (changed.length === 0) return nothing;
    return html`<p class="warning" role="note" data-testid="options-changed">
      Not the shipped settings: ${changed.map(({ label }) => label).join(', ')}. Sign-in and votes go to these
      addresses; change them only if your club tells you to.
    </p>`;
  }

  override render() {
    return html`
      <h1>${this.brand} settings</h1>
      <form @submit=${(event: Event) => void this.#save(event)}>
        ${fields.map(
          ({ key, label }) =>
            html`<label
              >${label}<input name=${key} .value=${this.values[key]} autocomplete="off" spellcheck="false"
            /></label>`,
        )}
        <div class="actions">
          <button type="submit" class="primary">Save</button>
          <button
            type="button"
            @click=${() => {
              this.values = { ...defaultSettings };
            }}
          >
            Shipped defaults
          </button>
        </div>
      </form>
      ${this.#renderChanged()}
      ${this.message ? html`<p role="status" data-testid="options-message">${this.message}</p>` : nothing}
    `;
  }
}

if (!customElements.get('fan-extension-options'))
  customElements.define('fan-extension-options', FanExtensionOptions);

declare global {
  interface HTMLElementTagNameMap {
    'fan-extension-options': FanExtensionOptions;
  }
}
