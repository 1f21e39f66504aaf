// Debian's redis-server for tests: started on a free loopback port in its own temporary folder, with the append-only
// file on (as a production Redis for sessions should be), so a test can stop and restart it on the same port and
// find the data again. The file is synced once a second, Redis's default for it, which a stop (SIGTERM) completes:
// synced at every write, a runner's busy disk held Redis past the proxy's 1 s deadline, time and again.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export { freePort };

export const redisServerPath = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM: Redis finishes writing its append-only file). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Sends the running server a signal (`SIGSTOP` pauses it as a stalled host would, `SIGCONT` resumes it). */
  signal(name: NodeJS.Signals): void;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'fan-polls-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = await launch(port, dir);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    // A paused server hears no SIGTERM: let it run on first.
    running.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      running.once('exit', () => {
        resolve();
      });
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    signal: (name) => {
      child?.kill(name);
    },
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    redisServerPath,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--protected-mode',
      'yes',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start on port ${port}:\n${output}`));
    }, 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${String(code)}):\n${output}`));
    });
  });
}
