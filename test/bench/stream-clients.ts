// Many pages holding the live poll stream, for the stream bench: a child process (its own event loop and file
// descriptors, the machine's other core) opens thousands of plain sockets to the proxies' `/api/polls/stream` and notes
// when each poll event reaches each one. Times are `process.hrtime` in ms: the system's monotonic clock, one for every
// process of the machine.
import { fork } from 'node:child_process';

/** The clients' commands. */
export type StreamClientCommand =
  | {
      readonly kind: 'open';
      readonly urls: readonly string[];
      readonly origin: string;
      readonly concurrency: number;
    }
  | { readonly kind: 'events'; readonly count: number; readonly deadlineMs: number }
  | { readonly kind: 'close' };

/** The clients' answers, one per command, in order. */
export type StreamClientAnswer =
  | { readonly kind: 'opened'; readonly open: number; readonly refused: number }
  /** The time each client read its `count`-th poll event (NaN: not by the deadline). */
  | { readonly kind: 'events'; readonly arrivals: Float64Array }
  | { readonly kind: 'closed' };

/** The clock of the arrival times: ms of `process.hrtime` (CLOCK_MONOTONIC), the same in every process. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export interface StreamClients {
  /**
   * Opens one stream per URL (`concurrency` at a time, each counted once its first poll event came): how many are
   * open, and how many were refused or failed.
   */
  open(
    urls: readonly string[],
    origin: string,
    concurrency: number,
  ): Promise<{ open: number; refused: number }>;
  /** Waits until every open client read `count` poll events in all, or `deadlineMs` passed: each one's time. */
  events(count: number, deadlineMs: number): Promise<Float64Array>;
  /** Closes every stream and ends the clients' process. */
  close(): Promise<void>;
}

/** Starts the clients' process (`stream-client-worker.ts`, through tsx like the proxies the bench starts). */
export function startStreamClients(): StreamClients {
  const child = fork(new URL('./stream-client-worker.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting: ((answer: StreamClientAnswer) => void)[] = [];
  child.on('message', (answer: StreamClientAnswer) => waiting.shift()?.(answer));
  const ask = (command: StreamClientCommand) =>
    new Promise<StreamClientAnswer>((resolve) => {
      waiting.push(resolve);
      child.send(command);
    });
  return {
    open: async (urls, origin, concurrency) => {
      const answer = await ask({ kind: 'open', urls, origin, concurrency });
      if (answer.kind !== 'opened') throw new Error(`Unexpected answer ${answer.kind}`);
      return { open: answer.open, refused: answer.refused };
    },
    events: async (count, deadlineMs) => {
      const answer = await ask({ kind: 'events', count, deadlineMs });
      if (answer.kind !== 'events') throw new Error(`Unexpected answer ${answer.kind}`);
      return answer.arrivals;
    },
    close: async () => {
      await ask({ kind: 'close' });
      await new Promise<void>((resolve) => {
        child.once('exit', () => {
          resolve();
        });
        child.disconnect();
      });
    },
  };
}
