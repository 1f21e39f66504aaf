// The server-rendering examples (examples/ssr/: plain node:http, Hono) as a partner runs them: plain Node, the packed
// package installed as `fan-polls`, against a real proxy and sandbox. Each page must arrive with the poll's card in
// its HTML (declarative shadow DOM, escaped text, the poll for hydration) and the proxy's hydrating script, which the
// proxy serves. That the card then hydrates without a redraw: test/browser/widget-ssr-hydration.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, rm, symlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Poll } from '../../src/platform/types.ts';
import { serverPollAttribute } from '../../widget/ssr/server-poll-data.ts';
import { hydrateScriptUrl } from '../../widget/ssr/hydrate-script-url.ts';
import { openRiversidePollFromProxy } from '../support/open-poll.ts';
import { startSandboxAndProxy, type SandboxAndProxy } from '../support/stack.ts';
import { ensurePackageBuilt } from '../support/vite-build.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** A partner's project: the examples beside `node_modules/fan-polls` (the built package); Hono from the repository. */
const project = `${root}.tmp-ssr-examples/`;
const examples = ['node-http.mjs', 'hono.mjs'];

let stack: SandboxAndProxy;
let poll: Poll;
const running: ChildProcess[] = [];

beforeAll(async () => {
  ensurePackageBuilt();
  await rm(project, { recursive: true, force: true });
  await mkdir(`${project}node_modules`, { recursive: true });
  await symlink(`${root}dist/package`, `${project}node_modules/fan-polls`, 'dir');
  for (const example of examples) await copyFile(`${root}examples/ssr/${example}`, project + example);
  stack = await startSandboxAndProxy({
    sandbox: { simulate: false },
    proxy: { env: { FAN_POLLS_WIDGET_DIR: `${root}dist/widget` } },
  });
  poll = await openRiversidePollFromProxy(stack.proxy.url);
}, 240_000);

afterAll(async () => {
  for (const child of running) child.kill();
  await stack.close();
  await rm(project, { recursive: true, force: true });
});

/** Starts `example` on a free port in plain Node; resolves with the URL it prints. */
function start(example: string): Promise<string> {
  const child = spawn(process.execPath, [project + example], {
    cwd: project,
    env: { ...process.env, FAN_POLLS_PROXY: stack.proxy.url, PORT: '0', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => {
      resolve(line.trim());
    });
    child.once('exit', (code) => {
      reject(new Error(`${example} exited (${String(code)}) before it listened.`));
    });
  });
}

describe.each(examples)('examples/ssr/%s', (example) => {
  it('serves a page with the poll’s card in its HTML, hydrated by a script the proxy serves', async () => {
    const url = await start(example);
    const answer = await fetch(`${url}?poll=${encodeURIComponent(poll.id)}`);
    expect(answer.status).toBe(200);
    const page = await answer.text();
    const card = /<fan-poll\s[^>]*>/.exec(page)?.[0] ?? '';
    for (const attribute of [
      `poll-id="${poll.id}"`,
      `proxy="${stack.proxy.url}"`,
      'lang="en"',
      'campaign="match-report"',
    ])
      expect(card).toContain(attribute);
    expect(page).toContain('<template shadowroot="open" shadowrootmode="open">');
    expect(page).toContain(escapeText(poll.question));
    for (const answerText of poll.answers.map((each) => each.answer))
      expect(page).toContain(escapeText(answerText));
    expect(page).toContain(serverPollAttribute);
    const script = hydrateScriptUrl(stack.proxy.url);
    expect(page).toContain(`<script type="module" src="${script}" data-proxy="${stack.proxy.url}"></script>`);
    const served = await fetch(script);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
