// The edge build on `workerd` (the Workers runtime, a development dependency) as a real server on a free loopback
// port: a generated config (the same generator as `npm run build:edge`'s), Durable Objects on local disk in a
// temporary folder that outlives a restart, the settings in workerd's environment as a partner's bindings.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { edgeBuild } from '../../src/edge/vite.edge.ts';
import { workerdConfig } from '../../src/edge/workerd-config.ts';
import { freePort } from './redis-server.ts';
import { waitUntil } from './wait-until.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const workerdBin = `${root}node_modules/.bin/workerd`;

/** Builds a Worker entry with the edge build's settings into a fresh temporary folder; answers the bundle's path. */
export async function buildEdgeBundle(entry?: string): Promise<string> {
  const outDir = mkdtempSync(`${tmpdir()}/fan-polls-edge-build-`);
  const config = edgeBuild({ ...(entry === undefined ? {} : { entry }), outDir });
  await build({ ...config, configFile: false, mode: 'production' });
  return `${outDir}/worker.js`;
}

export interface RunningWorkerd {
  readonly url: string;
  /** Every line workerd wrote (the Worker's logs among them). */
  readonly output: string[];
  /** The running workerd's process id (benchmarks read its CPU time). */
  pid(): number | undefined;
  /** Stops workerd and starts it again on the same port and storage, as a deploy or a crash would. */
  restart(): Promise<void>;
  /** Stops it and deletes its storage. */
  close(): Promise<void>;
}

export async function startWorkerd(
  bundle: string,
  env: Record<string, string> = {},
  /** `widgetDirectory`: the built widget, bound as the Worker's `FAN_POLLS_WIDGET_FILES` (default: an empty folder). */
  options: { widgetDirectory?: string } = {},
): Promise<RunningWorkerd> {
  const folder = mkdtempSync(`${tmpdir()}/fan-polls-workerd-`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const configPath = `${folder}/workerd.capnp`;
  writeFileSync(
    configPath,
    workerdConfig({
      // Relative to the config: capnp reads an absolute embed path against its import path.
      bundle: relative(folder, bundle),
      address: `127.0.0.1:${port}`,
      stateDirectory: `${folder}/state`,
      widgetDirectory: options.widgetDirectory ?? `${folder}/widget`,
    }),
  );
  mkdirSync(`${folder}/state`);
  mkdirSync(`${folder}/widget`);
  const output: string[] = [];
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(workerdBin, ['serve', configPath], {
      env: { ...process.env, FAN_POLLS_PUBLIC_URL: url, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    for (const stream of [started.stdout, started.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => output.push(...chunk.split('\n').filter((line) => line !== '')));
    }
    await waitForListening(url, started, output);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    output,
    pid: () => child?.pid,
    restart: async () => {
      await stop();
      await start();
    },
    close: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function waitForListening(url: string, child: ChildProcess, output: string[]): Promise<void> {
  if (child.exitCode !== null) throw new Error(`workerd exited: ${output.join('\n')}`);
  let onExit = () => {};
  const exited = new Promise<Error>((resolve) => {
    onExit = () => {
      resolve(new Error(`workerd exited: ${output.join('\n')}`));
    };
    child.once('exit', onExit);
  });
  // workerd prints nothing once it listens: its health route answering is the event.
  const listening = waitUntil(
    () => fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) }).then(() => true),
    `workerd to listen on ${url}`,
    15_000,
    50,
  ).then(
    () => undefined,
    (error: unknown) => new Error(`workerd did not listen: ${output.join('\n')}`, { cause: error }),
  );
  const failure = await Promise.race([listening, exited]);
  child.off('exit', onExit);
  if (failure !== undefined) throw failure;
}
