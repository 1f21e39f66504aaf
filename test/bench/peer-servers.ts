// Servers of the proxy bench in processes of their own, so that each one's CPU time can be read from /proc: Debian's
// nginx as a caching reverse proxy, bare Hono, the proxy (this build or another checkout's) from its own main.ts.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port.ts';
import { nginxMainConfig } from '../support/nginx-main-config.ts';

export { freePort };

export interface PeerServer {
  readonly name: string;
  readonly url: string;
  /** CPU seconds (user + system) of the server's processes so far. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime + stime of a process, in seconds (0 once it is gone). */
function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return 0;
  }
}

/** Resident memory of a process now, in bytes (`VmRSS`; 0 once it is gone). */
export function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The process and its children (nginx's master and worker). */
export function treeCpuSeconds(pid: number): number {
  let total = processCpuSeconds(pid);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) total += processCpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  headers: Record<string, string>,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${String(child.exitCode)})`);
    try {
      const answer = await fetch(url, { headers });
      await answer.body?.cancel();
      if (answer.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A Node server from a TypeScript entry (`node --import tsx`), stdout and stderr discarded (the access log is on);
 * `NODE_ENV=production` unless `env` says otherwise.
 */
export async function startNodeServer(options: {
  readonly name: string;
  readonly cwd: string;
  readonly entry: string;
  readonly env: Record<string, string>;
  readonly probePath: string;
  readonly probeHeaders?: Record<string, string>;
  /** Node's own options before the entry (`--cpu-prof`, which NODE_OPTIONS does not take). */
  readonly nodeOptions?: readonly string[];
}): Promise<PeerServer & { readonly pid: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), '--import', 'tsx', options.entry], {
    cwd: options.cwd,
    env: { ...process.env, NODE_ENV: 'production', ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const url = `http://127.0.0.1:${String(port)}`;
  await waitUntilAnswering(`${url}${options.probePath}`, child, options.probeHeaders ?? {});
  const pid = child.pid ?? 0;
  return {
    name: options.name,
    url,
    pid,
    cpuSeconds: () => processCpuSeconds(pid),
    stop: () => stopChild(child),
  };
}

/**
 * nginx (one worker) as a caching reverse proxy (`proxy_cache`, 5 s like the proxy's freshness) in front of the
 * sandbox's poll API, with the application token the proxy would send; `/api/polls/<id>` maps to the platform's poll.
 */
export async function startNginx(options: {
  readonly apiUrl: string;
  readonly apiPrefix: string;
  readonly token: string;
  readonly probePath: string;
}): Promise<PeerServer> {
  const folder = mkdtempSync(join(tmpdir(), 'fan-polls-nginx-'));
  const port = await freePort();
  const upstream = new URL(options.apiUrl);
  writeFileSync(
    join(folder, 'nginx.conf'),
    nginxMainConfig(
      folder,
      `  # Its access log on, like the proxy's.
  access_log ${folder}/access.log;
  proxy_cache_path ${folder}/cache keys_zone=polls:1m max_size=10m;
  upstream platform { server ${upstream.host}; keepalive 4; }
  server {
    listen 127.0.0.1:${String(port)};
    location /api/polls/ {
      proxy_pass http://platform${options.apiPrefix}/poll/;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Authorization "Bearer ${options.token}";
      proxy_cache polls;
      proxy_cache_valid 200 5s;
      proxy_cache_lock on;
      proxy_cache_use_stale updating error timeout;
      proxy_ignore_headers Cache-Control Expires Set-Cookie Vary;
      add_header Vary Origin;
    }
  }`,
    ),
  );
  const child = spawn('/usr/sbin/nginx', ['-c', join(folder, 'nginx.conf'), '-p', folder], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${String(port)}`;
  await waitUntilAnswering(`${url}${options.probePath}`, child, {});
  return {
    name: 'nginx',
    url,
    cpuSeconds: () => treeCpuSeconds(child.pid ?? 0),
    stop: async () => {
      await stopChild(child);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
