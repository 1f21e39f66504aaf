import { describe, expect, it } from 'vitest';
import { relativeImportSpecifiers, valueImports } from './module-imports.ts';

describe('valueImports of a package', () => {
  it('lists value imports from lit, not types and not other modules', () => {
    const code = [
      "import { html, nothing, type TemplateResult } from 'lit';",
      "import type { PropertyValues } from 'lit';",
      "import { css as styles } from 'lit';",
      "import { html as other } from 'lit/html.js';",
      "import { x } from './lit';",
    ].join('\n');
    expect(valueImports(code, 'lit')).toEqual(['html', 'nothing', 'css']);
    expect(valueImports(code, 'lit/html.js')).toEqual(['html']);
  });

  it('reads a namespace, default or bare import as needing everything', () => {
    expect(valueImports("import * as lit from 'lit';", 'lit')).toEqual(['*']);
    expect(valueImports("import Lit, { html } from 'lit';", 'lit')).toEqual(['*', 'html']);
    expect(valueImports("import 'lit';", 'lit')).toEqual(['*']);
  });
});

describe('valueImports and relativeImportSpecifiers', () => {
  const code = [
    "import { registerPart, type PartName } from '../runtime/parts.ts';",
    "import type { CardStrings } from '../i18n/strings.ts';",
    'import {',
    '  readProxyUrl,',
    '  widgetConfig as config,',
    "} from '../store/widget-config.ts';",
    "import { html } from 'lit';",
  ].join('\n');

  it('lists the value names imported from one module, multi-line imports and aliases included', () => {
    expect(valueImports(code, '../runtime/parts.ts')).toEqual(['registerPart']);
    expect(valueImports(code, '../store/widget-config.ts')).toEqual(['readProxyUrl', 'widgetConfig']);
    expect(valueImports(code, '../i18n/strings.ts')).toEqual([]);
    expect(valueImports(code, '../runtime/parts')).toEqual([]);
  });

  it('lists every relative specifier once, and no package', () => {
    expect(relativeImportSpecifiers(code + "\nimport { loadPart } from '../runtime/parts.ts';")).toEqual([
      '../runtime/parts.ts',
      '../i18n/strings.ts',
      '../store/widget-config.ts',
    ]);
  });
});
