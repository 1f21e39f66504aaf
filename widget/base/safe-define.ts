import { widgetVersion } from './widget-version.ts';

type VersionedElement = CustomElementConstructor & { readonly fanPollsVersion?: string };

/**
 * Defines `tag` unless it is already defined: loading the bundle twice (two script tags, a page and an iframe
 * sharing a registry) is then a no-op, with a console warning when the two copies are different versions.
 */
export function safeDefine(tag: string, element: CustomElementConstructor): void {
  const existing: VersionedElement | undefined = customElements.get(tag);
  if (!existing) {
    customElements.define(tag, element);
    return;
  }
  if (existing.fanPollsVersion !== widgetVersion) {
    console.warn(
      `<${tag}> is already defined by Fan Polls ${existing.fanPollsVersion ?? '(unknown version)'}; ` +
        `this copy (${widgetVersion}) is not used.`,
    );
  }
}
