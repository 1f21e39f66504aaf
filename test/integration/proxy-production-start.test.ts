// The production start, as a partner runs it: the server build copied to a clean folder with package.json and the
// lockfile, `npm ci --omit=dev` (no TypeScript runner, no dev dependency), then `node dist/sandbox/main.js` and
// `node dist/proxy/main.js` as separate processes with Redis configured; then SIGTERM with a request in flight. And
// the production preset under NODE_ENV=production with the platform on loopback: no development default.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardAndCount } from '../support/counting-forwarder.ts';
import { startRedis, type TestRedis } from '../support/redis-server.ts';
import { ensureServerBuilt, ensureWidgetBuilt } from '../support/vite-build.ts';
import { waitUntil } from '../support/wait-until.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pageOrigin = 'https://www.club.example';

let folder: string;
let redis: TestRedis;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ensureServerBuilt();
  ensureWidgetBuilt();
  folder = await mkdtemp(join(tmpdir(), 'fan-polls-production-'));
  for (const path of [
    'package.json',
    'package-lock.json',
    'dist/proxy',
    'dist/sandbox',
    'dist/server',
    'dist/widget',
  ]) {
    await cp(`${root}${path}`, join(folder, path), { recursive: true });
  }
  await promisify(execFile)(
    'npm',
    ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: folder, env: { ...process.env, NODE_ENV: 'production' } },
  );
  redis = await startRedis();
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await redis.close();
  await rm(folder, { recursive: true, force: true });
});

/** Starts `node <script>` in the clean folder and resolves with what its first lines say, matched by `ready`. */
function start(script: string, args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: folder,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${script} did not start:\n${output}`));
    }, 15_000);
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    void exited.then(() => {
      reject(new Error(`${script} exited:\n${output}`));
    });
  });
  return { child, matched, exited, output: () => output };
}

describe('the production start from a clean install', () => {
  it('installs no dev dependency', () => {
    expect(existsSync(join(folder, 'node_modules/hono'))).toBe(true);
    expect(existsSync(join(folder, 'node_modules/@redis/client'))).toBe(true);
    expect(existsSync(join(folder, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(folder, 'node_modules/vite'))).toBe(false);
  });

  it('runs the sandbox and the proxy with plain node, with Redis, and stops gracefully on SIGTERM', async () => {
    const sandbox = start(
      'dist/sandbox/main.js',
      ['--api-port', '0', '--auth-port', '0'],
      {},
      /resource API \(\{base_url\}\): (\S+)\s+OAuth server \(\{auth_url\}\): (\S+)/,
    );
    const [, apiUrl = '', authUrl = ''] = await sandbox.matched;
    // The proxy reaches the platform's API through a forwarder that records each request as it arrives.
    const platform = await forwardAndCount(apiUrl);
    const proxy = start(
      'dist/proxy/main.js',
      [],
      {
        PORT: '0',
        FAN_POLLS_PRESET: 'sandbox',
        FAN_POLLS_PLATFORM_API_URL: platform.url,
        FAN_POLLS_PLATFORM_AUTH_URL: authUrl,
        FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
        FAN_POLLS_REDIS_URL: redis.url,
        FAN_POLLS_TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      },
      /partner proxy on (\S+)/,
    );
    const [, proxyUrl = ''] = await proxy.matched;
    expect(proxy.output()).toContain('preset: sandbox (FAN_POLLS_PRESET=sandbox)');
    expect(proxy.output()).toContain('shared state: Redis');

    const polls = await fetch(`${proxyUrl}/api/polls?limit=2`, { headers: { Origin: pageOrigin } });
    expect(polls.status).toBe(200);
    expect(((await polls.json()) as { data: unknown[] }).data).toHaveLength(2);
    expect((await fetch(`${proxyUrl}/widget/fan-polls.js`)).status).toBe(200);
    const ready = await fetch(`${proxyUrl}/readyz`);
    expect(await ready.json()).toEqual({ ok: true, state: 'ready', platform: 'reachable' });

    // A slow platform, a read in flight, then SIGTERM: the read is answered, new connections are refused, exit 0.
    const slow = await fetch(`${apiUrl}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ latencyMs: 1500 }),
    });
    expect(slow.status).toBe(200);
    const readsBefore = platform.requests.length;
    const inFlight = fetch(`${proxyUrl}/api/polls?limit=3`, { headers: { Origin: pageOrigin } });
    // In flight: the proxy's read has reached the platform, which answers 1.5 s later.
    await waitUntil(
      () => platform.requests.slice(readsBefore).some((request) => request.path.endsWith('/polls')),
      'the read to reach the platform',
      10_000,
      20,
    );
    proxy.child.kill('SIGTERM');
    // Soon no new connection is taken (an idle keep-alive one may answer once more before it is closed)...
    await expect
      .poll(
        () =>
          fetch(`${proxyUrl}/healthz`).then(
            () => 'answered',
            () => 'refused',
          ),
        { timeout: 1000, interval: 50 },
      )
      .toBe('refused');
    // ...while the read in flight is still answered.
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(await proxy.exited).toBe(0);
    sandbox.child.kill('SIGTERM');
    await sandbox.exited;
    await platform.close();
  }, 60_000);
});

describe('the production preset with the platform on loopback (a local sidecar)', () => {
  /** Every production setting; the platform's URLs on loopback, where nothing answers. */
  const production = {
    NODE_ENV: 'production',
    PORT: '0',
    FAN_POLLS_PLATFORM_API_URL: 'https://127.0.0.1:9',
    FAN_POLLS_PLATFORM_AUTH_URL: 'https://localhost:9',
    FAN_POLLS_CLIENT_ID: 'club-application',
    FAN_POLLS_CLIENT_SECRET: 'club-application-secret',
    FAN_POLLS_PARTNER_TAG: 'club',
    FAN_POLLS_PUBLIC_URL: 'https://polls.club.example',
    FAN_POLLS_ALLOWED_ORIGINS: pageOrigin,
    FAN_POLLS_SESSION_SECRET: 'club-session-secret-0123456789abcdef',
  };
  /** `node dist/proxy/main.js` expected to refuse, run to its end (killed after 15 s): its exit code and output. */
  const refusal = (env: Record<string, string>) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['dist/proxy/main.js'], {
        cwd: folder,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 15_000,
      });
      let output = '';
      for (const stream of [child.stdout, child.stderr])
        stream.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
      child.once('close', (code) => {
        resolve({ code, output });
      });
    });

  it('refuses to start without FAN_POLLS_SESSION_SECRET or with plain http to the platform, naming each', async () => {
    const { FAN_POLLS_SESSION_SECRET: _secret, ...withoutSecret } = production;
    const plainHttp = { FAN_POLLS_PLATFORM_API_URL: 'http://127.0.0.1:4010' };
    const { code, output } = await refusal({ ...withoutSecret, ...plainHttp });
    expect(code).toBe(2);
    expect(output).toContain('The proxy cannot start (preset: production (NODE_ENV=production))');
    expect(output).toContain('FAN_POLLS_SESSION_SECRET is required in production.');
    expect(output).toContain('FAN_POLLS_PLATFORM_API_URL must be an https URL in production.');
    expect(output).not.toContain('partner proxy on');
  });

  it('refuses FAN_POLLS_ALLOW_LOOPBACK_ORIGINS=true and FAN_POLLS_PRESET=sandbox, naming them', async () => {
    const loopbackPages = await refusal({ ...production, FAN_POLLS_ALLOW_LOOPBACK_ORIGINS: 'true' });
    expect(loopbackPages.code).toBe(2);
    expect(loopbackPages.output).toContain(
      'FAN_POLLS_ALLOW_LOOPBACK_ORIGINS=true is for the sandbox preset only',
    );
    const sandboxPreset = await refusal({ ...production, FAN_POLLS_PRESET: 'sandbox' });
    expect(sandboxPreset.code).toBe(2);
    expect(sandboxPreset.output).toContain(
      'FAN_POLLS_PRESET=sandbox cannot be used with NODE_ENV=production',
    );
  });

  it('with every setting, says why it is production and grants no CORS to an unlisted loopback page', async () => {
    const proxy = start(
      'dist/proxy/main.js',
      [],
      production,
      /partner proxy on (\S+)[\s\S]*extension redirect URIs/,
    );
    const [, proxyUrl = ''] = await proxy.matched;
    expect(proxy.output()).toContain('preset: production (NODE_ENV=production)');
    const preflight = (origin: string) =>
      fetch(`${proxyUrl}/api/polls`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
      });
    expect((await preflight(pageOrigin)).headers.get('access-control-allow-origin')).toBe(pageOrigin);
    const localPage = 'http://127.0.0.1:4859';
    for (const answer of [
      await preflight(localPage),
      await fetch(`${proxyUrl}/api/polls`, { headers: { Origin: localPage } }),
    ])
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const origin = await fetch(`${proxyUrl}/api/origin`, { headers: { Origin: localPage } });
    expect(await origin.json()).toEqual({ origin: localPage, allowed: false });
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
  }, 30_000);
});
