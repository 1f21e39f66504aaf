/**
 * The proxy's log: one JSON line an event, with named fields only. Callers pass codes, counts and ids, never a
 * token or the secret; as a second line of defence every string is scrubbed of the secrets the logger was given.
 */
export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface ProxyLogger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
}

export type LogSink = (level: LogLevel, line: string) => void;

const consoleSink: LogSink = (level, line) => {
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
};

const levelRank: Readonly<Record<LogLevel, number>> = { info: 0, warn: 1, error: 2 };

/** A JSON-lines logger that writes `minimum` and above (FAN_POLLS_LOG_LEVEL). */
export function createJsonLogger(
  secrets: readonly string[],
  sink: LogSink = consoleSink,
  minimum: LogLevel = 'info',
): ProxyLogger {
  const scrub = scrubberFor(secrets);
  // One ISO string a millisecond: a busy proxy logs many lines in each.
  let stampedAt = NaN;
  let stamp = '';
  // The fixed parts of a line, written once and kept flat: a line made of fewer, flat pieces costs less to build and
  // to encode (one line a request). Field names and events come from the code, a short list.
  const heads: Readonly<Record<LogLevel, Map<string, string>>> = {
    info: new Map(),
    warn: new Map(),
    error: new Map(),
  };
  const names = new Map<string, string>();
  return {
    log(level, event, fields = {}) {
      if (levelRank[level] < levelRank[minimum]) return;
      const at = Date.now();
      if (at !== stampedAt) {
        stampedAt = at;
        stamp = flat(`{"time":"${new Date(at).toISOString()}","level":"`);
      }
      // The line `JSON.stringify({ time, level, event, ...fields })` writes, built as text: no record object, and no
      // escaping pass over strings that need none (`logger.test.ts` holds the two equal).
      let head = heads[level].get(event);
      if (head === undefined) head = remember(heads[level], event, `${level}","event":${jsonString(event)}`);
      let line = stamp + head;
      for (const key in fields) {
        const value = fields[key];
        if (value === undefined || key === 'time' || key === 'level' || key === 'event') continue;
        const name = names.get(key) ?? remember(names, key, `,${jsonString(key)}:`);
        line += name + (typeof value === 'string' ? jsonString(scrub(value)) : jsonValue(value));
      }
      sink(level, `${line}}`);
    },
  };
}

/** How many fixed parts a logger keeps at most (names and events come from the code; this only bounds a mistake). */
const rememberedMax = 512;

/** `part`, flat, kept as the fixed part for `key`. */
function remember(parts: Map<string, string>, key: string, part: string): string {
  const kept = flat(part);
  if (parts.size < rememberedMax) parts.set(key, kept);
  return kept;
}

/** `text` as one sequential string (V8 flattens a concatenation in place on its first character read). */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

/** A number or boolean as `JSON.stringify` writes it (a number that is not finite as `null`). */
function jsonValue(value: number | boolean): string {
  return typeof value === 'number' && !Number.isFinite(value) ? 'null' : String(value);
}

/** Characters `JSON.stringify` escapes in a string (a lone surrogate among them; a pair is left to it too). */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const needsEscaping = /["\\\x00-\x1f\ud800-\udfff]/;

/** `text` as a JSON string, as `JSON.stringify` writes it. */
function jsonString(text: string): string {
  return needsEscaping.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Replaces every occurrence of a known secret by `[redacted]`. */
function scrubberFor(secrets: readonly string[]): (text: string) => string {
  const known = secrets.filter((secret) => secret.length >= 4);
  // `includes` first: almost no line holds a secret, and splitting every field of every line costs.
  return (text) => {
    let scrubbed = text;
    for (const secret of known) {
      if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join('[redacted]');
    }
    return scrubbed;
  };
}

export const silentLogger: ProxyLogger = { log: () => undefined };
