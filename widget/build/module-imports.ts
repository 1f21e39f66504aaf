/** The specifiers of a module's relative imports (`./x.ts`, `../y.ts`), type-only ones included. */
export function relativeImportSpecifiers(code: string): string[] {
  return [
    ...new Set(
      [...code.matchAll(/\bimport\b[^'";]*?['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] ?? ''),
    ),
  ];
}

/**
 * The value names a TypeScript module imports from `specifier` (type-only imports left out). A namespace, default or
 * side-effect import reads as `*`: it needs every export.
 */
export function valueImports(code: string, specifier: string): string[] {
  const names: string[] = [];
  const quoted = specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(
    `\\bimport\\s+([^'";]*?)\\s*from\\s*['"]${quoted}['"]|\\bimport\\s*['"]${quoted}['"]`,
    'g',
  );
  for (const match of code.matchAll(pattern)) {
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
