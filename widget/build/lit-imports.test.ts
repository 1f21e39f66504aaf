import { describe, expect, it } from 'vitest';
import { litValueImports } from './lit-imports.ts';

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
