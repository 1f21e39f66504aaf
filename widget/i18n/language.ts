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
/** The chunk of each language (exported for tests, which make one fail). */
export const languageChunks = {
  de: async () => (await import('./de.ts')).de,
  es: async () => (await import('./es.ts')).es,
  fr: async () => (await import('./fr.ts')).fr,
  it: async () => (await import('./it.ts')).it,
  pt: async () => (await import('./pt.ts')).pt,
};

/** A card as `resolveLanguage` reads it: in a page, or in Lit SSR's DOM shim, whose elements have no `closest`. */
type RenderedElement = Pick<Element, 'getAttribute'> &
  Partial<Pick<Element, 'closest'>> & { requestUpdate(): void };

const waiting = new Map<string, Set<RenderedElement>>();
/** When a language's chunk last failed to load (offline, a deploy meanwhile): English stands in until a retry works. */
const failedAt = new Map<string, number>();
/** A failed chunk is asked for again when next needed, but not before this long (no retry loop while offline). */
export const languageRetryMs = 5000;

/** The card's language: its `lang`, else the closest ancestor's, else the page's; English when unsupported. */
export function resolveLanguage(element: RenderedElement): CardLanguage {
  // A server render (Lit SSR's DOM shim has no `closest`, no page around the card): its own `lang`, which
  // `fan-polls/ssr` always sets. (`closest` includes the element: where it finds none, the element has none either.)
  const declared =
    (element.closest?.('[lang]') ?? element).getAttribute('lang') ?? document.documentElement.lang;
  const locale = canonicalLocale(declared) ?? 'en';
  const code = locale.slice(0, 2).toLowerCase();
  const strings = loaded[code];
  if (strings) return { locale, strings };
  if (!(code in languageChunks)) return { locale: 'en', strings: en };
  const failed = failedAt.get(code);
  if (failed !== undefined && Date.now() - failed < languageRetryMs) return { locale, strings: en };
  let elements = waiting.get(code);
  if (!elements) {
    waiting.set(code, (elements = new Set()));
    const wake = (): void => {
      waiting.delete(code);
      for (const each of elements ?? []) each.requestUpdate();
    };
    languageChunks[code as keyof typeof languageChunks]().then(
      (next) => {
        loaded[code] = next;
        failedAt.delete(code);
        wake();
      },
      () => {
        failedAt.set(code, Date.now());
        wake();
      },
    );
  }
  elements.add(element);
  // The first load shows the skeleton; a retry after a failure keeps showing English meanwhile.
  return failed === undefined ? { locale, strings: en, pending: true } : { locale, strings: en };
}

/**
 * Loads the strings of the language `lang` names before a card renders in it, so that its first render is in that
 * language: a server render, or a server-rendered card about to hydrate. English and unsupported languages need
 * nothing; a chunk that fails leaves English, as for any card.
 */
export async function loadLanguage(lang: string | null | undefined): Promise<void> {
  const code = (canonicalLocale(lang ?? undefined) ?? 'en').slice(0, 2).toLowerCase();
  if (loaded[code] || !(code in languageChunks)) return;
  try {
    loaded[code] = await languageChunks[code as keyof typeof languageChunks]();
  } catch {
    // English stands in, as resolveLanguage does after a failed chunk.
  }
}
