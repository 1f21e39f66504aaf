import { describe, expect, it } from 'vitest';
import { minifyHtmlTemplates } from './minify-html.ts';

describe('minifyHtmlTemplates', () => {
  it('collapses indentation in the static text of html templates, nested ones included', () => {
    const source = [
      'const a = html`<ul>',
      '    ${items.map((item) => html`<li',
      "      class=${'x {'}",
      '    >${item}</li>`)}',
      '  </ul>`;',
    ].join('\n');
    expect(minifyHtmlTemplates(source)).toBe(
      "const a = html`<ul> ${items.map((item) => html`<li class=${'x {'} >${item}</li>`)} </ul>`;",
    );
  });

  it('leaves other templates, expressions and single-line whitespace alone', () => {
    const source =
      'const b = `a\n  b`;\nconst c = html`<p>a  b ${`x\n  y`}</p>`;\nconst d = innerhtml`\n x`;';
    expect(minifyHtmlTemplates(source)).toBe(source);
  });
});
