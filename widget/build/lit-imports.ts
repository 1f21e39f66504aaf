/**
 * The value names a TypeScript module imports from `'lit'` (type-only imports left out). A namespace, default or
 * side-effect import of Lit reads as `*`: it needs every export.
 */
export function litValueImports(code: string): string[] {
  const names: string[] = [];
  for (const match of code.matchAll(/\bimport\s+([^'";]*?)\s*from\s*['"]lit['"]|\bimport\s*['"]lit['"]/g)) {
    const clause = match[1];
    if (clause === undefined) {
      names.push('*');
      continue;
    }
    if (/^type\b/.test(clause)) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    const outside = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    if (outside !== '') names.push('*');
    for (const specifier of braces?.[1]?.split(',') ?? []) {
      const name =
        specifier
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      if (name !== '' && !name.startsWith('type ')) names.push(name);
    }
  }
  return names;
}
