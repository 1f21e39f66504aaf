/**
 * Lit's `html` templates ship as written, indentation included. This collapses every run of whitespace that holds a
 * line break, in the static text of each `html` template, to one space: the same rendering under normal
 * `white-space`, and no expression is ever rewritten (a small scanner steps over them, strings and nested templates).
 */
export function minifyHtmlTemplates(source: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = source.indexOf('html`', at);
    if (start < 0) return out + source.slice(at);
    const tagged = start === 0 || !/[\w$.]/.test(source.charAt(start - 1));
    out += source.slice(at, start + 5);
    if (!tagged) {
      at = start + 5;
      continue;
    }
    const [text, end] = template(source, start + 5, true);
    out += text;
    at = end;
  }
}

/** From just after the opening backtick to just after the closing one. */
function template(source: string, from: number, collapse: boolean): [string, number] {
  let out = '';
  let text = '';
  let at = from;
  const flush = (): void => {
    out += collapse ? text.replace(/\s*\n\s*/g, ' ') : text;
    text = '';
  };
  while (at < source.length) {
    const char = source.charAt(at);
    if (char === '\\') {
      text += source.slice(at, at + 2);
      at += 2;
    } else if (char === '`') {
      flush();
      return [out + '`', at + 1];
    } else if (char === '$' && source.charAt(at + 1) === '{') {
      flush();
      const [expression, end] = expressionUntilBrace(source, at + 2);
      out += '${' + expression;
      at = end;
    } else {
      text += char;
      at += 1;
    }
  }
  throw new Error('Unterminated template literal.');
}

/** From just after `${` to just after its closing `}`; nested `html` templates are minified too. */
function expressionUntilBrace(source: string, from: number): [string, number] {
  let out = '';
  let depth = 0;
  let at = from;
  while (at < source.length) {
    const char = source.charAt(at);
    if (char === '}' && depth === 0) return [out + '}', at + 1];
    if (char === '{') depth += 1;
    if (char === '}') depth -= 1;
    if (char === "'" || char === '"') {
      const end = stringEnd(source, at, char);
      out += source.slice(at, end);
      at = end;
    } else if (char === '`') {
      const [text, end] = template(source, at + 1, source.slice(Math.max(0, at - 4), at) === 'html');
      out += '`' + text;
      at = end;
    } else {
      out += char;
      at += 1;
    }
  }
  throw new Error('Unterminated template expression.');
}

function stringEnd(source: string, from: number, quote: string): number {
  let at = from + 1;
  while (at < source.length && source.charAt(at) !== quote) at += source.charAt(at) === '\\' ? 2 : 1;
  return at + 1;
}
