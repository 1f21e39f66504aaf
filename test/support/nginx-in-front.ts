// Debian's nginx started with the shipped recipe (`examples/nginx/fan-polls.conf`) in front of proxy instances: the
// recipe as a partner would use it, with only its EDIT lines set for this run (a free port, a private folder, the
// instances). Its access log says, request by request, what the cache did.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { nginxMainConfig } from './nginx-main-config.ts';
import { waitUntil } from './wait-until.ts';

export const nginxPath = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const shippedNginxRecipe = new URL('../../examples/nginx/fan-polls.conf', import.meta.url);

/** One line of the recipe's access log. */
export interface NginxLogLine {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** `$upstream_cache_status`: HIT, MISS, STALE, UPDATING, EXPIRED, REVALIDATED, BYPASS, or `-` (not cached). */
  readonly cache: string;
  readonly origin: string;
  readonly setCookie: string;
  readonly cacheControl: string;
}

export interface NginxInFront {
  readonly url: string;
  readonly port: number;
  /** nginx's master process (its worker is its child). */
  readonly pid: number;
  /** The access log so far. */
  log(): NginxLogLine[];
  stop(): Promise<void>;
}

/** The recipe with its EDIT lines set: listen, log and cache paths, and the instances. */
export function recipeFor(
  recipe: string,
  options: { port: number; folder: string; upstreams: readonly string[] },
) {
  const servers = options.upstreams.map((upstream) => `server ${new URL(upstream).host};`).join('\n    ');
  const edits: [RegExp, string][] = [
    [/proxy_cache_path \S+/, `proxy_cache_path ${join(options.folder, 'cache')}`],
    [/(\n\s*server 127\.0\.0\.1:\d+;)+/, `\n    ${servers}`],
    [/listen 80;/, `listen 127.0.0.1:${String(options.port)};`],
    [/access_log \S+ fan_polls;/, `access_log ${join(options.folder, 'access.log')} fan_polls;`],
  ];
  return edits.reduce((text, [line, value]) => {
    if (!line.test(text)) throw new Error(`The nginx recipe has no line ${String(line)} to set.`);
    return text.replace(line, value);
  }, recipe);
}

export async function startNginxInFront(upstreams: readonly string[], port?: number): Promise<NginxInFront> {
  const folder = mkdtempSync(join(tmpdir(), 'fan-polls-nginx-in-front-'));
  const listenPort = port ?? (await freePort());
  const recipe = recipeFor(readFileSync(shippedNginxRecipe, 'utf8'), { port: listenPort, folder, upstreams });
  writeFileSync(join(folder, 'fan-polls.conf'), recipe);
  writeFileSync(join(folder, 'nginx.conf'), nginxMainConfig(folder, `  include ${folder}/fan-polls.conf;`));
  const child = spawn(nginxPath, ['-c', join(folder, 'nginx.conf'), '-p', folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const url = `http://127.0.0.1:${String(listenPort)}`;
  await waitUntil(async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${errors}`);
    return fetch(`${url}/healthz`).then(
      (answer) => answer.status === 200,
      () => false,
    );
  }, 'nginx to answer');
  return {
    url,
    port: listenPort,
    pid: child.pid ?? 0,
    log: () => parseLog(readFileSync(join(folder, 'access.log'), 'utf8')),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

const logLine =
  /"(\S+) (\S+) [^"]*" (\d+) cache=(\S+) origin="([^"]*)" set_cookie="([^"]*)" cache_control="([^"]*)"/;

function parseLog(text: string): NginxLogLine[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = logLine.exec(line);
      if (match === null) throw new Error(`An nginx log line the recipe does not write: ${line}`);
      const [
        ,
        method = '',
        path = '',
        status = '0',
        cache = '',
        origin = '',
        setCookie = '',
        cacheControl = '',
      ] = match;
      return { method, path, status: Number(status), cache, origin, setCookie, cacheControl };
    });
}
