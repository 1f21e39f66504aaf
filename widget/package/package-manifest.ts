/** Where each element's module is in the widget's sources, and where it is in the package. */
const modulesInPackage: Readonly<Record<string, string>> = {
  'widget/fan-poll/fan-poll.ts': 'fan-poll.js',
  'widget/fan-poll-list/fan-poll-list.ts': 'fan-poll-list.js',
  'widget/iframe/fan-polls-frame.ts': 'fan-poll-frame.js',
};

interface ManifestModule {
  path: string;
  exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
}

/**
 * The widget build's `custom-elements.json` (all three elements, generated from their JSDoc) with module paths that
 * name the package's files, as tools resolve them from the package.
 */
export function packageManifest(widgetManifest: unknown): unknown {
  const manifest = structuredClone(widgetManifest) as { modules: ManifestModule[] };
  for (const module of manifest.modules) {
    const path = modulesInPackage[module.path];
    if (path === undefined) throw new Error(`custom-elements.json: no package file for ${module.path}.`);
    module.path = path;
    for (const entry of module.exports ?? [])
      if (entry.declaration.module !== undefined) entry.declaration.module = path;
  }
  return manifest;
}
