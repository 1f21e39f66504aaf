/** The package's entries: the module each is built from, and what it exports under. */
export const packageEntries = [
  { name: 'index', source: 'index.ts', exportPath: '.' },
  { name: 'fan-poll', source: 'fan-poll.ts', exportPath: './fan-poll' },
  { name: 'fan-poll-list', source: 'fan-poll-list.ts', exportPath: './fan-poll-list' },
  { name: 'fan-poll-frame', source: 'fan-poll-frame.ts', exportPath: './fan-poll-frame' },
  { name: 'define', source: 'define.ts', exportPath: './define' },
  { name: 'react', source: 'react.ts', exportPath: './react' },
  { name: 'ssr', source: 'ssr.ts', exportPath: './ssr' },
  { name: 'hydrate', source: 'hydrate.ts', exportPath: './hydrate' },
] as const;

/** The project's public repository (a placeholder until it is published). */
const repositoryUrl = 'https://github.com/fan-polls/fan-polls';

/**
 * Entries whose import does something: `define` and `react` define the elements, `hydrate` installs Lit's hydration.
 * Everything else may be tree-shaken.
 */
const sideEffectEntries = ['define', 'react', 'hydrate'];

/**
 * The published package.json, from the repository's: its version, Lit's version, @lit/react's range; React as an
 * optional peer (only `fan-polls/react` needs it).
 */
export function packageJson(rootPackage: Record<string, unknown>): Record<string, unknown> {
  const dependencies = rootPackage.dependencies as Record<string, string>;
  const devDependencies = rootPackage.devDependencies as Record<string, string>;
  return {
    name: 'fan-polls',
    version: rootPackage.version,
    description:
      'Live fan polls for partner pages: <fan-poll>, <fan-poll-list> and <fan-poll-frame> web components (Lit), with types and React components.',
    license: 'MIT',
    // Placeholders until the project's public home is decided: a release states them.
    homepage: `${repositoryUrl}#readme`,
    repository: { type: 'git', url: `git+${repositoryUrl}.git` },
    bugs: { url: `${repositoryUrl}/issues` },
    type: 'module',
    exports: {
      ...Object.fromEntries(
        packageEntries.map((entry) => [
          entry.exportPath,
          { types: `./types/widget/package/${entry.name}.d.ts`, default: `./${entry.name}.js` },
        ]),
      ),
      './custom-elements.json': './custom-elements.json',
      './package.json': './package.json',
    },
    types: './types/widget/package/index.d.ts',
    module: './index.js',
    sideEffects: sideEffectEntries.map((name) => `./${name}.js`),
    customElements: 'custom-elements.json',
    // The self-contained browser build, for CDNs that serve a package's default file.
    unpkg: './cdn/fan-polls.js',
    jsdelivr: './cdn/fan-polls.js',
    files: [
      '*.js',
      '*.js.map',
      'chunks/',
      'cdn/',
      'types/',
      'docs/',
      'custom-elements.json',
      'README.md',
      'CHANGELOG.md',
      'LICENSE.txt',
      'THIRD-PARTY-NOTICES.txt',
    ],
    keywords: ['web-components', 'lit', 'custom-elements', 'polls', 'fan-tokens', 'react', 'ssr'],
    dependencies: {
      lit: dependencies.lit,
      '@lit/react': devDependencies['@lit/react'],
      // Server rendering (`fan-polls/ssr`) and its hydration (`fan-polls/hydrate`): Lit's own packages.
      '@lit-labs/ssr': dependencies['@lit-labs/ssr'],
      '@lit-labs/ssr-client': dependencies['@lit-labs/ssr-client'],
    },
    peerDependencies: { react: '>=18' },
    peerDependenciesMeta: { react: { optional: true } },
  };
}
