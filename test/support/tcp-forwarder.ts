// A TCP forwarder on a free loopback port in front of a server (Redis), that a test can make hold every byte (a
// blackholed link: nothing is lost, nothing arrives, as TCP retransmitting into a dead route), slow down (each
// chunk delivered `delayMs` after it came) or let flow again. Order is kept in each direction. A watcher sees what
// each client sends (a bench counts the Redis commands a proxy sent, whatever the link then did with them).
import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpForwarder {
  readonly port: number;
  /** Bytes wait until `flow()`. */
  hold(): void;
  /** Each chunk arrives `delayMs` late. */
  slow(delayMs: number): void;
  /** Back to a working link; what was held goes on, in order. */
  flow(): void;
  close(): Promise<void>;
}

interface Chunk {
  readonly bytes: Buffer;
  readonly arrivedAt: number;
}

export interface ForwardTcpOptions {
  /** Called for each client connection accepted; the sink it returns sees every chunk that client sends. */
  readonly watchClient?: () => (chunk: Buffer) => void;
}

export async function forwardTcp(targetPort: number, options: ForwardTcpOptions = {}): Promise<TcpForwarder> {
  let held = false;
  let delayMs = 0;
  const pumps = new Set<() => void>();
  const sockets = new Set<Socket>();

  /** Moves chunks from `from` to `to` when the link lets them. */
  const direction = (from: Socket, to: Socket) => {
    const queue: Chunk[] = [];
    let timer: NodeJS.Timeout | undefined;
    const pump = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      while (!held && queue.length > 0) {
        const head = queue[0]!;
        const wait = head.arrivedAt + delayMs - Date.now();
        if (wait > 0) {
          timer = setTimeout(pump, wait);
          return;
        }
        queue.shift();
        if (!to.destroyed) to.write(head.bytes);
      }
    };
    pumps.add(pump);
    from.on('data', (bytes: Buffer) => {
      queue.push({ bytes, arrivedAt: Date.now() });
      pump();
    });
    from.on('close', () => {
      pumps.delete(pump);
      if (timer !== undefined) clearTimeout(timer);
      to.destroy();
    });
  };

  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    const sink = options.watchClient?.();
    if (sink !== undefined) client.on('data', sink);
    direction(client, upstream);
    direction(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const setLink = (nextHeld: boolean, nextDelayMs: number) => {
    held = nextHeld;
    delayMs = nextDelayMs;
    for (const pump of pumps) pump();
  };
  return {
    port,
    hold: () => {
      setLink(true, 0);
    },
    slow: (ms) => {
      setLink(false, ms);
    },
    flow: () => {
      setLink(false, 0);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
