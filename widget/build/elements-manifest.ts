/** The parts of a `custom-elements.json` this build tidies. */
export interface ElementsManifest {
  modules: {
    declarations?: {
      tagName?: string;
      attributes?: { name: string; fieldName?: string }[];
      members?: { name: string; attribute?: string; privacy?: string }[];
      events?: { name?: string }[];
    }[];
  }[];
}

/**
 * What the analyzer gets wrong for these elements: it lists each `dispatchEvent(new X())` as an event without a
 * name (the `@fires` tags name them), it lists `#private` members, and it shows `state: true` properties and the
 * members the list's lazily imported body uses as public API. `internal` names the last two, by tag.
 */
export function tidyManifest(
  manifest: ElementsManifest,
  internal: Readonly<Record<string, readonly string[]>>,
): ElementsManifest {
  for (const declaration of manifest.modules.flatMap((module) => module.declarations ?? [])) {
    const hidden = internal[declaration.tagName ?? ''] ?? [];
    if (declaration.events) declaration.events = declaration.events.filter((event) => event.name);
    if (declaration.attributes)
      declaration.attributes = declaration.attributes.filter(
        (attribute) => !hidden.includes(attribute.fieldName ?? attribute.name),
      );
    if (declaration.members)
      declaration.members = declaration.members.filter(
        (member) => member.privacy !== 'private' && !hidden.includes(member.name),
      );
  }
  return manifest;
}
