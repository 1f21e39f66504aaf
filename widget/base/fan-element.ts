import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { render, type RenderOptions } from 'lit/html.js';
import { widgetVersion } from './widget-version.ts';

/**
 * How an element's property is declared (the subset of Lit's `PropertyDeclaration` the widget uses).
 * `attribute`: the attribute it follows (default or `true`: the property's name in lower case; `false`: none). `type: Boolean`: present or
 * absent. `reflect`: written back to the attribute. `state`: internal, no attribute. `noAccessor`: only the attribute
 * is watched (any change re-renders), the element reads it itself.
 */
export interface FanPropertyDeclaration {
  readonly attribute?: string | boolean;
  readonly type?: BooleanConstructor;
  readonly reflect?: boolean;
  readonly state?: boolean;
  readonly noAccessor?: boolean;
}

/** The properties that changed since the last render, with their previous values. */
export type ChangedProperties = ReadonlyMap<PropertyKey, unknown>;

type ElementClass = typeof FanElement;

interface ClassInfo {
  /** Attribute name -> property (undefined: watched only, `noAccessor`). */
  readonly attributes: ReadonlyMap<string, string | undefined>;
  /** Property -> its declaration. */
  readonly declarations: ReadonlyMap<string, FanPropertyDeclaration>;
  /** The class's styles, built once and adopted by every instance. */
  sheet?: CSSStyleSheet;
}

const classInfo = new WeakMap<ElementClass, ClassInfo>();

const canAdoptSheets =
  typeof ShadowRoot === 'function' &&
  'adoptedStyleSheets' in Document.prototype &&
  'replaceSync' in CSSStyleSheet.prototype;

/** The tag of a style template: the text as written (the build minifies it); no interpolation, so nothing leaks in. */
export function css(strings: TemplateStringsArray): string {
  return strings.join('');
}

/**
 * The widget's base element: a custom element that renders Lit templates (`lit/html.js`) into its shadow root, with
 * the part of LitElement's reactive cycle the widget uses: declared properties and their attributes, one batched
 * render per microtask, `willUpdate` / `render` / `updated`, `updateComplete`, and Lit's reactive controllers.
 * LitElement's reactive layer is 2.7 kB gzip of the script-tag embed's 10 kB budget; this is under 1 kB. The extension's
 * own pages, which have no budget, use LitElement.
 */
export class FanElement extends HTMLElement implements ReactiveControllerHost {
  /** Compared by `safeDefine` when a second copy of the widget meets this one. */
  static readonly fanPollsVersion = widgetVersion;
  static properties: Readonly<Record<string, FanPropertyDeclaration>> = {};
  /** The element's CSS (`css` above). */
  static styles = '';

  static get observedAttributes(): string[] {
    return [...info(this).attributes.keys()];
  }

  readonly renderRoot: ShadowRoot;
  #changed = new Map<PropertyKey, unknown>();
  #updatePending = false;
  #hasConnected = false;
  #reflecting = false;
  #controllers = new Set<ReactiveController>();
  #updateComplete: Promise<boolean> = Promise.resolve(true);
  #early: Map<string, unknown> | undefined;

  constructor() {
    super();
    const { declarations } = info(this.constructor as ElementClass);
    // A property set before the element upgraded is an own property hiding the accessor: kept aside, and set through
    // the accessor before the first render, so that it also wins over the subclass constructor's default.
    for (const name of declarations.keys()) {
      if (!Object.prototype.hasOwnProperty.call(this, name)) continue;
      (this.#early ??= new Map()).set(name, (this as unknown as Record<string, unknown>)[name]);
      Reflect.deleteProperty(this, name);
    }
    this.renderRoot = this.attachShadow({ mode: 'open' });
    adoptStyles(this.renderRoot, this.constructor as ElementClass);
  }

  /** Resolves after the pending render (true when no other render is pending then). */
  get updateComplete(): Promise<boolean> {
    return this.#updateComplete;
  }

  addController(controller: ReactiveController): void {
    this.#controllers.add(controller);
    if (this.isConnected) controller.hostConnected?.();
  }

  removeController(controller: ReactiveController): void {
    this.#controllers.delete(controller);
  }

  connectedCallback(): void {
    this.#hasConnected = true;
    for (const controller of this.#controllers) controller.hostConnected?.();
    this.requestUpdate();
  }

  disconnectedCallback(): void {
    for (const controller of this.#controllers) controller.hostDisconnected?.();
  }

  attributeChangedCallback(attribute: string, old: string | null, value: string | null): void {
    if (this.#reflecting || old === value) return;
    const { attributes, declarations } = info(this.constructor as ElementClass);
    const name = attributes.get(attribute);
    if (name === undefined) {
      this.requestUpdate();
      return;
    }
    const declaration = declarations.get(name);
    (this as unknown as Record<string, unknown>)[name] =
      declaration?.type === Boolean ? value !== null : (value ?? undefined);
  }

  /** Plans a render in a microtask (several changes, one render); `name` records what changed. */
  requestUpdate(name?: PropertyKey, oldValue?: unknown): void {
    if (name !== undefined && !this.#changed.has(name)) this.#changed.set(name, oldValue);
    if (this.#updatePending) return;
    this.#updatePending = true;
    this.#updateComplete = this.#scheduleUpdate();
  }

  async #scheduleUpdate(): Promise<boolean> {
    await Promise.resolve();
    // Not yet connected: the first render waits for `connectedCallback`, which asks again.
    if (!this.#hasConnected) {
      this.#updatePending = false;
      return true;
    }
    try {
      this.#performUpdate();
    } catch (error) {
      // Never into the host page: an element whose render failed stays as it was and says why in the console.
      console.error('Fan Polls could not render an element.', error);
    }
    return !this.#updatePending;
  }

  #performUpdate(): void {
    const early = this.#early;
    this.#early = undefined;
    for (const [name, value] of early ?? []) (this as unknown as Record<string, unknown>)[name] = value;
    const changed = this.#changed;
    this.#changed = new Map();
    this.#updatePending = false;
    this.willUpdate(changed);
    for (const controller of this.#controllers) controller.hostUpdate?.();
    this.#reflect(changed);
    render(this.render(), this.renderRoot, { host: this } satisfies RenderOptions);
    for (const controller of this.#controllers) controller.hostUpdated?.();
    this.updated(changed);
  }

  #reflect(changed: ChangedProperties): void {
    const { declarations } = info(this.constructor as ElementClass);
    this.#reflecting = true;
    try {
      for (const name of changed.keys()) {
        const declaration = declarations.get(name as string);
        if (!declaration?.reflect) continue;
        const attribute = attributeName(name as string, declaration);
        if (attribute === undefined) continue;
        const value: unknown = (this as unknown as Record<string, unknown>)[name as string];
        if (value === true) this.setAttribute(attribute, '');
        else if (typeof value === 'string') this.setAttribute(attribute, value);
        else this.removeAttribute(attribute);
      }
    } finally {
      this.#reflecting = false;
    }
  }

  /** Before each render, with the properties that changed: derive state here. */
  protected willUpdate(_changed: ChangedProperties): void {}

  /** The shadow root's content (a Lit template, `nothing`, or any value lit-html renders); empty by default. */
  protected render(): unknown {
    return undefined;
  }

  /** After each render. */
  protected updated(_changed: ChangedProperties): void {}
}

function attributeName(name: string, declaration: FanPropertyDeclaration): string | undefined {
  if (declaration.state || declaration.attribute === false) return undefined;
  return typeof declaration.attribute === 'string' ? declaration.attribute : name.toLowerCase();
}

/** Builds a class's attribute map and property accessors once, on first use. */
function info(element: ElementClass): ClassInfo {
  let known = classInfo.get(element);
  if (known) return known;
  const attributes = new Map<string, string | undefined>();
  const declarations = new Map<string, FanPropertyDeclaration>();
  for (const [name, declaration] of Object.entries(element.properties)) {
    const attribute = attributeName(name, declaration);
    if (declaration.noAccessor) {
      if (attribute !== undefined) attributes.set(attribute, undefined);
      continue;
    }
    if (attribute !== undefined) attributes.set(attribute, name);
    declarations.set(name, declaration);
    defineAccessor(element.prototype, name);
  }
  known = { attributes, declarations };
  classInfo.set(element, known);
  return known;
}

function defineAccessor(prototype: FanElement, name: string): void {
  const values = new WeakMap<FanElement, unknown>();
  Object.defineProperty(prototype, name, {
    configurable: true,
    enumerable: true,
    get(this: FanElement) {
      return values.get(this);
    },
    set(this: FanElement, value: unknown) {
      const old = values.get(this);
      values.set(this, value);
      if (!Object.is(old, value)) this.requestUpdate(name, old);
    },
  });
}

/** Constructed sheets where the browser adopts them (no CSP question), else a `<style>` with the page's nonce. */
function adoptStyles(root: ShadowRoot, element: ElementClass): void {
  if (element.styles === '') return;
  if (canAdoptSheets) {
    const known = info(element);
    if (!known.sheet) {
      known.sheet = new CSSStyleSheet();
      known.sheet.replaceSync(element.styles);
    }
    root.adoptedStyleSheets = [known.sheet];
    return;
  }
  const style = document.createElement('style');
  const nonce = (globalThis as { litNonce?: string }).litNonce;
  if (nonce) style.setAttribute('nonce', nonce);
  style.textContent = element.styles;
  root.append(style);
}
