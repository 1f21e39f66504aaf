// The kinds of setting the proxy's configuration table is made of: each builder says how one environment variable's
// text is parsed and checked, what it is when unset, and how the docs describe it.
import { isLoopbackUrl as isLoopback } from '../../contracts/loopback.ts';

/** Sandbox: development against the local sandbox, only when chosen; production: the default (`preset-choice.ts`). */
export type Preset = 'sandbox' | 'production';

/** The settings read so far (in table order), for a default that depends on an earlier one. */
export type ReadSoFar = Readonly<Record<string, unknown>>;

/** A text the kind refuses: each problem names the variable and the rule (never a secret's value). */
export class Refused {
  constructor(readonly problems: readonly string[]) {}
}

/** One row of the table, as the reader and the docs use it. */
export interface Option<T> {
  readonly env: string;
  /** For the docs: `integer`, `origin`, `list of origins`, `one of`, ... */
  readonly kind: string;
  /** For the docs: the range or format a value must have ('' when any text goes). */
  readonly bounds: string;
  /** For the docs: what it does, in a line or two of Markdown. */
  readonly doc: string;
  /** For the docs: the value when unset, per preset. */
  readonly defaultDoc: string;
  /** The trimmed, non-empty text of the variable. */
  readonly parse: (text: string) => T | Refused;
  /** The value when unset; in production a `required` option has none (the reader reports it). */
  readonly unset: {
    readonly sandbox: (read: ReadSoFar) => T;
    readonly production: ((read: ReadSoFar) => T) | typeof required;
  };
}

/** Unset in production is a problem: the sandbox's value is only good for the sandbox. */
export const required = Symbol('required');
/** Unset means undefined: the feature is off, or something else decides. */
export const none = Symbol('none');

/** A sandbox default computed from settings above it in the table (`doc` shows it in the docs). */
export interface Derived<T> {
  readonly doc: string;
  readonly from: (read: ReadSoFar) => T;
}
export function derived<T>(doc: string, from: (read: ReadSoFar) => T): Derived<T> {
  return { doc, from };
}

/** Different values on the sandbox and in production. */
export interface PerPreset<T> {
  readonly sandbox: T | Derived<T>;
  readonly production: T | typeof required;
}

/** What an unset variable gives: one value everywhere, `none`, or one per preset. */
export type Default<T> = T | typeof none | PerPreset<T>;
/** The value type a default leaves: `none` adds `undefined`. */
type WithDefault<T, D> = typeof none extends D ? T | undefined : T;

interface Common<T, D extends Default<T>> {
  readonly env: string;
  readonly doc: string;
  readonly default: D;
  /** Replaces the generated default text (a secret's sandbox value, what "unset" means). */
  readonly defaultDoc?: string;
}

const code = (value: unknown): string => `\`${String(value)}\``;
/** 1,000,000 in the docs (the error messages keep 1000000, as it is typed). */
const grouped = (value: number): string => value.toLocaleString('en-US');

function showValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(code).join(', ');
  return value === undefined ? 'none' : code(value);
}

function isPerPreset<T>(value: Default<T>): value is PerPreset<T> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'sandbox' in value;
}

function isDerived<T>(value: T | Derived<T>): value is Derived<T> {
  return typeof value === 'object' && value !== null && 'from' in value && 'doc' in value;
}

function unsetOf<T>(fallback: Default<T>): { text: string; unset: Option<T>['unset'] } {
  if (!isPerPreset(fallback)) {
    const value = (fallback === none ? undefined : fallback) as T;
    return { text: showValue(value), unset: { sandbox: () => value, production: () => value } };
  }
  const { sandbox, production } = fallback;
  const sandboxText = isDerived(sandbox) ? sandbox.doc : showValue(sandbox);
  return {
    text:
      production === required
        ? `required in production; sandbox ${sandboxText}`
        : `sandbox ${sandboxText}, otherwise ${showValue(production)}`,
    unset: {
      sandbox: isDerived(sandbox) ? sandbox.from : () => sandbox,
      production: production === required ? required : () => production,
    },
  };
}

function option<T, D extends Default<T>>(
  spec: Common<T, D>,
  kind: string,
  bounds: string,
  parse: (text: string) => T | Refused,
): Option<WithDefault<T, D>> {
  const { text, unset } = unsetOf<T>(spec.default);
  return {
    env: spec.env,
    kind,
    bounds,
    doc: spec.doc,
    defaultDoc: spec.defaultDoc ?? text,
    parse,
    unset,
  };
}

/** A whole number within bounds. */
export function integer<D extends Default<number>>(
  spec: Common<number, D> & { readonly min: number; readonly max: number; readonly unit?: string },
): Option<WithDefault<number, D>> {
  const { env, min, max } = spec;
  return option(
    spec,
    spec.unit === undefined ? 'integer' : `integer (${spec.unit})`,
    `${grouped(min)} to ${grouped(max)}`,
    (text) => {
      const number = Number(text);
      return /^\d+$/.test(text) && number >= min && number <= max
        ? number
        : new Refused([`${env} must be a whole number from ${min} to ${max}, not "${text}".`]);
    },
  );
}

export function boolean<D extends Default<boolean>>(
  spec: Common<boolean, D>,
): Option<WithDefault<boolean, D>> {
  return option(spec, 'boolean', '`true` or `false`', (text) =>
    text === 'true' || text === 'false'
      ? text === 'true'
      : new Refused([`${spec.env} must be "true" or "false", not "${text}".`]),
  );
}

/** One of a few words. */
export function oneOf<const V extends readonly [string, ...string[]], D extends Default<V[number]>>(
  spec: Common<V[number], D> & { readonly values: V },
): Option<WithDefault<V[number], D>> {
  const quoted = spec.values.map((value) => `"${value}"`);
  const either = `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1) ?? ''}`;
  return option(spec, 'one of', spec.values.map(code).join(', '), (text) =>
    (spec.values as readonly string[]).includes(text)
      ? (text as V[number])
      : new Refused([`${spec.env} must be ${either}, not "${text}".`]),
  );
}

/**
 * Free text, optionally with a rule; the problem never quotes the value (it may be a secret or hold a password).
 * `rule` completes "<VARIABLE> ..." (`must be at least 32 characters`).
 */
export function text<D extends Default<string>>(
  spec: Common<string, D> & {
    readonly kind?: string;
    readonly bounds?: string;
    readonly check?: (value: string) => boolean;
    readonly rule?: string;
  },
): Option<WithDefault<string, D>> {
  const { check, rule = 'is not valid' } = spec;
  return option(spec, spec.kind ?? 'string', spec.bounds ?? '', (value) =>
    check === undefined || check(value) ? value : new Refused([`${spec.env} ${rule}.`]),
  );
}

/** `check`/`rule`/`bounds` for a text of at least `length` characters. */
export function atLeast(length: number): { check: (value: string) => boolean; rule: string; bounds: string } {
  return {
    check: (value) => value.length >= length,
    rule: `must be at least ${length} characters`,
    bounds: `at least ${length} characters`,
  };
}

/** An http(s) URL with no path, query or fragment, read as its origin. */
function parseOrigin(env: string, value: string): string | Refused {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return new Refused([`${env}: "${value}" is not a URL.`]);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return new Refused([`${env}: "${value}" must be an http or https URL.`]);
  const originOnly =
    (url.pathname === '/' || url.pathname === '') &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '';
  if (!originOnly)
    return new Refused([`${env}: "${value}" must be an origin only (scheme, host, port), with no path.`]);
  return url.origin;
}

export function origin<D extends Default<string>>(spec: Common<string, D>): Option<WithDefault<string, D>> {
  return option(spec, 'origin', 'http(s) scheme, host and port, no path', (value) =>
    parseOrigin(spec.env, value),
  );
}

/** Comma-separated items, each checked; an unset variable gives the default, an empty one an empty list. */
function list<D extends Default<readonly string[]>>(
  spec: Common<readonly string[], D>,
  kind: string,
  bounds: string,
  parseItem: (item: string) => string | Refused,
): Option<WithDefault<readonly string[], D>> {
  return option(spec, kind, bounds, (value) => {
    const items = value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
      .map(parseItem);
    const refused = items.flatMap((item) => (item instanceof Refused ? item.problems : []));
    return refused.length > 0 ? new Refused(refused) : (items as string[]);
  });
}

export function originList<D extends Default<readonly string[]>>(
  spec: Common<readonly string[], D>,
): Option<WithDefault<readonly string[], D>> {
  return list(spec, 'list of origins', 'comma-separated http(s) origins', (item) =>
    parseOrigin(spec.env, item),
  );
}

/** Comma-separated items matching `pattern`; `rule` completes `<VARIABLE>: "<item>" ...`. */
export function patternList<D extends Default<readonly string[]>>(
  spec: Common<readonly string[], D> & {
    readonly kind: string;
    readonly pattern: RegExp;
    readonly rule: string;
    readonly bounds: string;
  },
): Option<WithDefault<readonly string[], D>> {
  return list(spec, spec.kind, spec.bounds, (item) =>
    spec.pattern.test(item) ? item : new Refused([`${spec.env}: "${item}" ${spec.rule}.`]),
  );
}

/**
 * Where browsers reach a server: https (a Secure cookie needs it) or http on loopback, a path allowed, no query or
 * fragment; read without its trailing slashes.
 */
export function publicUrl<D extends Default<string>>(
  spec: Common<string, D>,
): Option<WithDefault<string, D>> {
  const { env } = spec;
  return option(spec, 'url', 'https (http on loopback), a path allowed, no query', (value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return new Refused([`${env}: "${value}" is not a URL.`]);
    }
    const problems: string[] = [];
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.href)))
      problems.push(`${env}: "${value}" must be https (the session cookie is Secure).`);
    if (url.search !== '' || url.hash !== '') problems.push(`${env} must have no query or fragment.`);
    return problems.length > 0 ? new Refused(problems) : `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  });
}
