import type { LogLevel, LogSink } from '../logger.ts';

/** Where the buffered log goes (Node: stdout and stderr, in `serve.ts`). */
export interface LogDestination {
  /** Info lines, several at once, each ending in a newline. */
  write(chunk: string): void;
  /** One warn or error line (no newline), written at once. */
  writeUrgent(level: LogLevel, line: string): void;
}

export interface BufferedLogSink {
  readonly sink: LogSink;
  /** Writes what is buffered now. */
  flush(): void;
  /** Flushes, stops the timer, and writes every later line at once (a graceful stop loses nothing). */
  close(): void;
}

export interface BufferedLogOptions {
  /** How often the buffer is written (default 100 ms). */
  readonly flushMs?: number;
  /** Written at once past this many characters (default 64 kB). */
  readonly maxChars?: number;
}

/**
 * The access log at a fraction of its cost: info lines (one a request) are joined and written once per `flushMs` or
 * `maxChars` instead of one write a line; warnings and errors flush what is buffered and go out at once, so nothing
 * that matters waits and the order within the stream is kept. Lines are only delayed, never dropped.
 */
export function bufferedLogSink(
  destination: LogDestination,
  options: BufferedLogOptions = {},
): BufferedLogSink {
  const maxChars = options.maxChars ?? 64 * 1024;
  let pending = '';
  let closed = false;
  const flush = () => {
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    destination.write(chunk);
  };
  const timer = setInterval(flush, options.flushMs ?? 100);
  // Node: the timer alone does not keep the process alive (other runtimes have no `unref`).
  (timer as { unref?: () => void }).unref?.();
  return {
    sink(level, line) {
      if (level !== 'info' || closed) {
        flush();
        if (level === 'info') destination.write(`${line}\n`);
        else destination.writeUrgent(level, line);
        return;
      }
      pending += `${line}\n`;
      if (pending.length >= maxChars) flush();
    },
    flush,
    close() {
      closed = true;
      clearInterval(timer);
      flush();
    },
  };
}
