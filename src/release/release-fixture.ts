// A repository's files as the release reads and rewrites them, at version 0.1.0 with one unreleased entry: what the
// release tests start from, in memory or in a temporary git repository.
export const releaseFixtureFiles: Readonly<Record<string, string>> = {
  'package.json': '{\n  "name": "fan-polls",\n  "version": "0.1.0"\n}\n',
  'package-lock.json':
    '{\n  "version": "0.1.0",\n  "packages": {\n    "": {\n      "version": "0.1.0"\n    }\n  }\n}\n',
  'manifest.json': '{\n  "version": "0.1.0"\n}\n',
  'widget/base/widget-version.ts': "export const widgetVersion = '0.1.0';\n",
  'widget/package/README.md': 'src="https://p/widget/v0.1.0/fan-polls.js"\n',
  'CHANGELOG.md': '# Changelog\n\n## 0.1.0 (unreleased)\n\n- Cards.\n',
};
