import { html } from 'lit/html.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { css, FanElement, type ChangedProperties } from './fan-element.ts';

let count = 0;
const tag = () => `fan-test-element-${(count += 1)}`;

/** A small element on the base: one of each kind of property, its renders and changes recorded. */
function defineProbe() {
  class Probe extends FanElement {
    static override styles = css`
      p {
        color: red;
      }
    `;
    static override properties = {
      label: {},
      pollId: { attribute: 'poll-id' },
      open: { type: Boolean, reflect: true },
      theme: { reflect: true },
      store: { attribute: false },
      picked: { state: true },
      search: { noAccessor: true },
    };
    declare label: string | undefined;
    declare pollId: string;
    declare open: boolean;
    declare theme: string | undefined;
    declare store: object | undefined;
    declare picked: string | undefined;
    renders = 0;
    changes: Map<PropertyKey, unknown>[] = [];

    constructor() {
      super();
      this.pollId = '';
      this.open = false;
    }

    protected override willUpdate(changed: ChangedProperties): void {
      this.changes.push(new Map(changed));
    }

    protected override render() {
      this.renders += 1;
      return html`<p>${this.label ?? ''}|${this.pollId}|${this.getAttribute('search') ?? ''}</p>`;
    }
  }
  const name = tag();
  customElements.define(name, Probe);
  return { Probe, name };
}

async function mounted(markup: string) {
  document.body.innerHTML = markup;
  const element = document.body.firstElementChild as InstanceType<ReturnType<typeof defineProbe>['Probe']>;
  await element.updateComplete;
  return element;
}

const text = (element: Element) => element.shadowRoot?.querySelector('p')?.textContent;

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('FanElement', () => {
  it('renders into its shadow root once connected, from its attributes', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name} label="Hi" poll-id="p1" search="ada"></${name}>`);
    expect(text(element)).toBe('Hi|p1|ada');
    expect(element.renders).toBe(1);
  });

  it('follows attribute changes, removal included (a string becomes undefined, a boolean false)', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name} label="Hi" open></${name}>`);
    expect(element.open).toBe(true);
    element.setAttribute('label', 'Bye');
    element.removeAttribute('open');
    await element.updateComplete;
    expect(element.label).toBe('Bye');
    expect(element.open).toBe(false);
    element.removeAttribute('label');
    await element.updateComplete;
    expect(element.label).toBeUndefined();
  });

  it('re-renders when a watched-only attribute changes', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name} search="ada"></${name}>`);
    element.setAttribute('search', 'bea');
    await element.updateComplete;
    expect(text(element)).toBe('||bea');
  });

  it('batches several changes into one render, and tells willUpdate what changed with the old values', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name} label="a"></${name}>`);
    element.label = 'b';
    element.label = 'c';
    element.pollId = 'p2';
    element.picked = 'x';
    await element.updateComplete;
    expect(element.renders).toBe(2);
    expect(element.changes.at(-1)).toEqual(
      new Map<PropertyKey, unknown>([
        ['label', 'a'],
        ['pollId', ''],
        ['picked', undefined],
      ]),
    );
  });

  it('does not render again for a value that did not change', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name} label="a"></${name}>`);
    element.label = 'a';
    await element.updateComplete;
    expect(element.renders).toBe(1);
  });

  it('reflects declared properties to attributes, and internal state never', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name}></${name}>`);
    element.open = true;
    element.theme = 'dark';
    element.picked = 'x';
    element.store = {};
    await element.updateComplete;
    expect(element.getAttribute('open')).toBe('');
    expect(element.getAttribute('theme')).toBe('dark');
    expect(element.hasAttribute('picked')).toBe(false);
    expect(element.hasAttribute('store')).toBe(false);
    element.open = false;
    element.theme = undefined;
    await element.updateComplete;
    expect(element.hasAttribute('open')).toBe(false);
    expect(element.hasAttribute('theme')).toBe(false);
  });

  it('keeps a property a page set before the element was defined', async () => {
    const name = tag();
    document.body.innerHTML = `<${name}></${name}>`;
    const early = document.body.firstElementChild as HTMLElement & { label?: string; pollId?: string };
    early.label = 'set early';
    early.pollId = 'p9';
    class Late extends FanElement {
      static override properties = { label: {}, pollId: { attribute: 'poll-id' } };
      declare label: string | undefined;
      declare pollId: string;
      constructor() {
        super();
        this.pollId = '';
      }
      protected override render() {
        return html`<p>${this.label}|${this.pollId}</p>`;
      }
    }
    customElements.define(name, Late);
    await (early as unknown as Late).updateComplete;
    // The page's values win over the constructor's defaults, and go through the accessors.
    expect(text(early)).toBe('set early|p9');
    expect(Object.prototype.hasOwnProperty.call(early, 'label')).toBe(false);
    expect(Object.prototype.hasOwnProperty.call(early, 'pollId')).toBe(false);
  });

  it('does not render before it is connected', async () => {
    const { Probe } = defineProbe();
    const element = new Probe();
    element.label = 'x';
    await element.updateComplete;
    expect(element.renders).toBe(0);
    document.body.append(element);
    await element.updateComplete;
    expect(element.renders).toBe(1);
  });

  it('tells its controllers when it is connected and disconnected', async () => {
    const { Probe } = defineProbe();
    const element = new Probe();
    const calls: string[] = [];
    element.addController({
      hostConnected: () => calls.push('connected'),
      hostDisconnected: () => calls.push('disconnected'),
    });
    document.body.append(element);
    element.remove();
    await element.updateComplete;
    expect(calls).toEqual(['connected', 'disconnected']);
  });

  it('adopts its styles in the shadow root', async () => {
    const { name } = defineProbe();
    const element = await mounted(`<${name}></${name}>`);
    const sheets = element.shadowRoot!.adoptedStyleSheets;
    const styleText =
      sheets.length > 0
        ? [...sheets[0]!.cssRules].map((rule) => rule.cssText).join('')
        : (element.shadowRoot!.querySelector('style')?.textContent ?? '');
    expect(styleText).toContain('color');
  });

  it('never throws into the page when a render fails: it logs, and the next change renders again', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const name = tag();
    class Fragile extends FanElement {
      static override properties = { label: {} };
      declare label: string | undefined;
      protected override render() {
        if (this.label === 'boom') throw new Error('broken template');
        return html`<p>${this.label}</p>`;
      }
    }
    customElements.define(name, Fragile);
    const element = (await mounted(`<${name} label="boom"></${name}>`)) as unknown as Fragile;
    expect(logged).toHaveBeenCalledOnce();
    element.label = 'fine';
    await element.updateComplete;
    expect(text(element)).toBe('fine');
  });
});
