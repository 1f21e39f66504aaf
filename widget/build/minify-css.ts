/**
 * Lit's `css` templates ship as written; this takes out comments and the whitespace CSS does not need. Only
 * templates without `${}` (or escapes) are touched, so no expression is ever rewritten.
 */
export function minifyCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}

/** Minifies every plain `css\`...\`` template of a source file (not a quoted `css` in a comment). */
export function minifyCssTemplates(source: string): string {
  return source.replace(
    /(?<![`\w.$])css`([^`$\\]*)`/g,
    (_match, text: string) => `css\`${minifyCss(text)}\``,
  );
}
