// The generic reader: parses a source of variables (the process environment, or a Workers binding object) against a
// table of options, collecting every problem instead of stopping at the first.
import { Refused, required, type Option, type Preset, type ReadSoFar } from './option-kinds.ts';

/** Variables by name, as `process.env` has them; a Workers build passes its bindings. */
export type ConfigSource = Readonly<Record<string, string | undefined>>;

export type OptionTable = Readonly<Record<string, Option<unknown>>>;

/** The values a table gives, by key: the table's type is the settings' type. */
export type OptionValues<Table extends OptionTable> = {
  readonly [Key in keyof Table]: Table[Key] extends Option<infer Value> ? Value : never;
};

export interface ReadOptions<Table extends OptionTable> {
  readonly values: OptionValues<Table>;
  /** The options the source set (an empty or blank variable counts as unset). */
  readonly set: ReadonlySet<keyof Table>;
  /** One sentence per problem, naming the variable and the rule. */
  readonly problems: readonly string[];
}

/** The trimmed text of a variable; blank is unset. */
function textOf(source: ConfigSource, name: string): string | undefined {
  const value = source[name]?.trim();
  return value === '' ? undefined : value;
}

/** Unset (or refused): the preset's default; a required one falls back to the sandbox's value. */
function defaultOf<T>(option: Option<T>, preset: Preset, read: ReadSoFar): T {
  const fallback = option.unset[preset];
  return fallback === required ? option.unset.sandbox(read) : fallback(read);
}

/** One option: its value (the default when unset or refused) and its problems. */
export function readOption<T>(
  option: Option<T>,
  source: ConfigSource,
  preset: Preset,
  read: ReadSoFar = {},
): { value: T; set: boolean; problems: readonly string[] } {
  const text = textOf(source, option.env);
  const parsed = text === undefined ? undefined : option.parse(text);
  if (parsed !== undefined && !(parsed instanceof Refused)) return { value: parsed, set: true, problems: [] };
  const value = defaultOf(option, preset, read);
  if (parsed instanceof Refused) return { value, set: true, problems: parsed.problems };
  const missing = option.unset[preset] === required;
  const problems = missing ? [`${option.env} is required in production.`] : [];
  return { value, set: false, problems };
}

/** Every option of `table`, in order (a default may use the ones above it), with the defaults of `preset`. */
export function readOptions<Table extends OptionTable>(
  table: Table,
  source: ConfigSource,
  preset: Preset,
): ReadOptions<Table> {
  const values: Record<string, unknown> = {};
  const set = new Set<keyof Table>();
  const problems: string[] = [];
  for (const [key, option] of Object.entries(table)) {
    const read = readOption(option, source, preset, values);
    values[key] = read.value;
    if (read.set) set.add(key);
    problems.push(...read.problems);
  }
  return { values: values as OptionValues<Table>, set, problems };
}
