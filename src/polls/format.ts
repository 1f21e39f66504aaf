/**
 * Intl formatting for cards: percentages, counts, countdowns and relative times, in the reader's locale. Formatters
 * are cached per locale and options because a page of cards formats the same shapes every second.
 */

export interface FormatOptions {
  /** BCP 47 tag; the runtime's default locale when absent. An invalid tag falls back to the default. */
  readonly locale?: string | undefined;
}

const cache = new Map<string, Intl.NumberFormat | Intl.PluralRules>();

/** The plural category of `count` in `locale` ('one', 'other', ...): the words around a number follow it. */
export function pluralCategory(count: number, locale: string | undefined): Intl.LDMLPluralRule {
  const key = `p|${locale ?? ''}`;
  let rules = cache.get(key) as Intl.PluralRules | undefined;
  if (rules === undefined) {
    rules = new Intl.PluralRules(canonicalLocale(locale));
    cache.set(key, rules);
  }
  return rules.select(count);
}

function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale ?? ''}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (format === undefined) {
    format = new Intl.NumberFormat(canonicalLocale(locale), options);
    cache.set(key, format);
  }
  return format;
}

/** A locale tag the runtime accepts, or undefined (the default locale): a bad attribute must not break a card. */
export function canonicalLocale(locale: string | undefined): string | undefined {
  if (locale === undefined || locale === '') return undefined;
  try {
    return Intl.getCanonicalLocales(locale)[0];
  } catch {
    return undefined;
  }
}

/** `percentage` is 0..100 (as in `AnswerView`); shown with exactly `decimals` digits: `42.5 %`, `42,5 %`. */
export function formatPercent(
  percentage: number,
  options: FormatOptions & { decimals?: number } = {},
): string {
  const decimals = Math.min(4, Math.max(0, Math.trunc(options.decimals ?? 0)));
  const format = numberFormat(options.locale, {
    style: 'percent',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return format.format(Number.isFinite(percentage) ? percentage / 100 : 0);
}

/** A count of votes or tokens: `12,345`, or `12K` when `compact`. */
export function formatCount(count: number, options: FormatOptions & { compact?: boolean } = {}): string {
  const format = numberFormat(
    options.locale,
    options.compact === true
      ? { notation: 'compact', maximumFractionDigits: 1 }
      : { maximumFractionDigits: 0 },
  );
  return format.format(Number.isFinite(count) ? count : 0);
}

/** The parts of a remaining time, rounded up to the second so a countdown never shows 0 before the instant. */
export function countdownParts(ms: number): {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
} {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

/**
 * A countdown a fan reads at a glance: days and hours while days remain (`2d 3h`), hours and minutes within the day
 * (`1h 2m`), and to the second only in the last hour (`4:05`); units in the locale's narrow form.
 */
export function formatCountdown(ms: number, options: FormatOptions = {}): string {
  const { days, hours, minutes, seconds } = countdownParts(ms);
  const unit = (value: number, name: 'day' | 'hour' | 'minute'): string =>
    numberFormat(options.locale, { style: 'unit', unit: name, unitDisplay: 'narrow' }).format(value);
  if (days > 0) return `${unit(days, 'day')} ${unit(hours, 'hour')}`;
  if (hours > 0) return `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  const two = numberFormat(options.locale, { minimumIntegerDigits: 2, useGrouping: false });
  return `${numberFormat(options.locale, { useGrouping: false }).format(minutes)}:${two.format(seconds)}`;
}
