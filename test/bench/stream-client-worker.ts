// The stream bench's clients (`stream-clients.ts` forks this process): plain sockets sending the request a page's
// EventSource sends, each noting the time of every poll event it reads. No parsing beyond finding `event: poll`: the
// clients cost their process little, so their times are the proxy's, not theirs.
import { connect, type Socket } from 'node:net';
import { pollEventName } from '../../src/contracts/poll-stream-contract.ts';
import { monotonicMs, type StreamClientAnswer, type StreamClientCommand } from './stream-clients.ts';

const marker = `event: ${pollEventName}\n`;

interface Client {
  readonly socket: Socket;
  /** When each poll event came. */
  readonly arrivals: number[];
}

const clients: Client[] = [];
/** A wait for every client's `count`-th event: how many clients have it so far. */
let pending: { count: number; reached: number; done: () => void } | undefined;

function answer(message: StreamClientAnswer): void {
  process.send?.(message);
}

/** One stream: resolves true once its first poll event came, false when refused or cut before it. */
function openOne(url: string, origin: string): Promise<boolean> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve) => {
    const arrivals: number[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    let head = true;
    let carry = '';
    let settled = false;
    const settle = (opened: boolean) => {
      if (settled) return;
      settled = true;
      if (opened) clients.push({ socket, arrivals });
      else socket.destroy();
      resolve(opened);
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: ${origin}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n`,
      );
    });
    socket.on('data', (text: string) => {
      const now = monotonicMs();
      if (head) {
        head = false;
        if (!text.startsWith('HTTP/1.1 200')) {
          settle(false);
          return;
        }
      }
      // A marker split across two reads is found in the carried tail of the first.
      const seen = carry + text;
      const before = arrivals.length;
      for (let at = seen.indexOf(marker); at >= 0; at = seen.indexOf(marker, at + 1))
        if (at + marker.length > carry.length) arrivals.push(now);
      carry = seen.slice(-(marker.length - 1));
      if (arrivals.length > 0) settle(true);
      if (pending !== undefined && before < pending.count && arrivals.length >= pending.count) {
        pending.reached += 1;
        if (pending.reached >= clients.length) pending.done();
      }
    });
    socket.on('error', () => {
      settle(false);
    });
    socket.on('close', () => {
      settle(false);
    });
  });
}

async function open(urls: readonly string[], origin: string, concurrency: number): Promise<void> {
  let next = 0;
  let opened = 0;
  let refused = 0;
  const lane = async () => {
    while (next < urls.length) {
      const url = urls[next] ?? '';
      next += 1;
      if (await openOne(url, origin)) opened += 1;
      else refused += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  answer({ kind: 'opened', open: opened, refused });
}

function events(count: number, deadlineMs: number): void {
  const finish = () => {
    clearTimeout(timer);
    pending = undefined;
    const arrivals = new Float64Array(clients.length);
    clients.forEach((client, index) => {
      arrivals[index] = client.arrivals[count - 1] ?? Number.NaN;
    });
    answer({ kind: 'events', arrivals });
  };
  const timer = setTimeout(finish, deadlineMs);
  const reached = clients.filter((client) => client.arrivals.length >= count).length;
  pending = { count, reached, done: finish };
  if (reached >= clients.length) finish();
}

process.on('message', (command: StreamClientCommand) => {
  if (command.kind === 'open') void open(command.urls, command.origin, command.concurrency);
  else if (command.kind === 'events') events(command.count, command.deadlineMs);
  else {
    for (const client of clients.splice(0)) client.socket.destroy();
    answer({ kind: 'closed' });
  }
});
