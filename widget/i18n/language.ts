import { canonicalLocale } from '../../src/polls/format.ts';
import { en } from './en.ts';
import type { CardStrings } from './strings.ts';

export interface CardLanguage {
  readonly locale: string;
  readonly strings: CardStrings;
  /** The language's strings are still loading (English stands in); the element is updated when they arrive. */
  readonly pending?: true;
}

/** English is in the element code; every other language is a chunk of its own, imported on first use. */
const loaded: Record<string, CardStrings> = { en };
const lazy = {
  de: async () => (await import('./de.ts')).de,
  es: async () => (await import('./es.ts')).es,
  fr: async () => (await import('./fr.ts')).fr,
  it: async () => (await import('./it.ts')).it,
  pt: async () => (await import('./pt.ts')).pt,
} as const;
const waiting = new Map<string, Set<Element & { requestUpdate(): void }>>();

/** The card's language: its `lang`, else the closest ancestor's, else the page's; English when unsupported. */
export function resolveLanguage(element: Element & { requestUpdate(): void }): CardLanguage {
  const declared = element.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang;
  const locale = canonicalLocale(declared) ?? 'en';
  const code = locale.slice(0, 2).toLowerCase();
  const strings = loaded[code];
  if (strings) return { locale, strings };
  if (!(code in lazy)) return { locale: 'en', strings: en };
  let elements = waiting.get(code);
  if (!elements) {
    waiting.set(code, (elements = new Set()));
    const arrived = (next: CardStrings): void => {
      loaded[code] = next;
      waiting.delete(code);
      for (const each of elements ?? []) each.requestUpdate();
    };
    lazy[code as keyof typeof lazy]().then(arrived, () => {
      arrived(en);
    });
  }
  elements.add(element);
  return { locale, strings: en, pending: true };
}
