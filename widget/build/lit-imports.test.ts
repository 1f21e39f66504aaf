import { describe, expect, it } from 'vitest';
import { litValueImports, relativeImportSpecifiers, valueImports } from './lit-imports.ts';

describe('litValueImports', () => {
  it('lists value imports from lit, not types and not other modules', () => {
    const code = [
      "import { html, nothing, type TemplateResult } from 'lit';",
      "import type { PropertyValues } from 'lit';",
      "import { css as styles } from 'lit';",
      "import { html as other } from 'lit/directives/class-map.js';",
      "import { x } from './lit';",
    ].join('\n');
    expect(litValueImports(code)).toEqual(['html', 'nothing', 'css']);
  });

  it('reads a namespace, default or bare import as needing everything', () => {
    expect(litValueImports("import * as lit from 'lit';")).toEqual(['*']);
    expect(litValueImports("import Lit, { html } from 'lit';")).toEqual(['*', 'html']);
    expect(litValueImports("import 'lit';")).toEqual(['*']);
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
