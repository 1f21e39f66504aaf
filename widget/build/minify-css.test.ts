import { describe, expect, it } from 'vitest';
import { minifyCss, minifyCssTemplates } from './minify-css.ts';

describe('minifyCss', () => {
  it('drops comments and needless whitespace but keeps descendant combinators and values', () => {
    const css = `/* note */
      :host([theme='dark']) {
        --_bg: var(--fan-poll-background, #151923);
      }
      [part~='quorum'] progress { margin-top: 4px; font: 600 14px/1.2 system-ui, 'Segoe UI'; }
      @media (prefers-reduced-motion: reduce) { a > b:focus-visible { transition: none; } }`;
    expect(minifyCss(css)).toBe(
      ":host([theme='dark']){--_bg:var(--fan-poll-background,#151923)}" +
        "[part~='quorum'] progress{margin-top:4px;font:600 14px/1.2 system-ui,'Segoe UI'}" +
        '@media (prefers-reduced-motion:reduce){a>b:focus-visible{transition:none}}',
    );
  });

  it('rewrites plain css templates only, never one with an expression', () => {
    const source = 'const a = css`\n  p { color: red; }\n`;\nconst b = css`p { color: ${x}; }`;';
    expect(minifyCssTemplates(source)).toBe(
      'const a = css`p{color:red}`;\nconst b = css`p { color: ${x}; }`;',
    );
  });

  it('leaves a quoted `css` in a comment alone', () => {
    const source = '/** The CSS (`css` above). */\nconst s = `a  b`;';
    expect(minifyCssTemplates(source)).toBe(source);
  });
});
