// Naming an element through shadow roots, for every driver: a chain of CSS selectors, each step searching the
// previous match's shadow root (`'fan-poll >> [part~="answer"]'`), run in the page as a self-contained function.

export interface Target {
  /** CSS selectors separated by ` >> `; each step searches the previous match's shadow root (or its children). */
  readonly chain: string;
  /** Only elements whose text contains this. */
  readonly hasText?: string;
  /** Which of the matches (default the first). */
  readonly nth?: number;
}

/** Finds `target` in the document, through shadow roots: the function every driver runs in the page. */
export function findTarget({ chain, hasText, nth }: Target): Element | null {
  let matches: Element[] = [];
  let scopes: (Document | Element | ShadowRoot)[] = [document];
  for (const selector of chain.split(' >> ')) {
    matches = scopes.flatMap((scope) => [...scope.querySelectorAll(selector)]);
    scopes = matches.map((element) => element.shadowRoot ?? element);
  }
  const filtered =
    hasText === undefined ? matches : matches.filter((each) => each.textContent.includes(hasText));
  return filtered[nth ?? 0] ?? null;
}
