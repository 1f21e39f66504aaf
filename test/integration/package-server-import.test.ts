// Server-side rendering (Next.js, Remix, Astro) imports the package in Node, where there is no `window`, `location`,
// `document` or custom element registry: every built entry must import there, and the React components must render
// to a string. Plain Node in a child process, so that no test environment's globals help.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageEntries } from '../../widget/package/package-json.ts';
import { ensurePackageBuilt } from '../support/vite-build.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `code` as an ES module in plain Node, from the repository (so `react` resolves); its stdout. */
async function inNode(code: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return stdout;
}

beforeAll(() => {
  ensurePackageBuilt();
}, 180_000);

describe('the npm package on a server', () => {
  it.each(packageEntries.map((entry) => entry.name))('imports %s in Node without a DOM', async (name) => {
    const output = await inNode(`
      await import(${JSON.stringify(`${root}dist/package/${name}.js`)});
      console.log(JSON.stringify([typeof window, typeof document, typeof location]));
    `);
    expect(JSON.parse(output)).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('renders the React components with react-dom/server', async () => {
    const html = await inNode(`
      import * as React from 'react';
      import { renderToString } from 'react-dom/server';
      const { FanPoll, FanPollFrame, FanPollList } = await import(${JSON.stringify(`${root}dist/package/react.js`)});
      const proxy = 'https://polls.club.example';
      process.stdout.write(renderToString(React.createElement('main', null,
        React.createElement(FanPoll, { proxy, pollId: 'poll-1', campaign: 'spring' }),
        React.createElement(FanPollList, { proxy, partnerIds: 'club-1', limit: 6 }),
        React.createElement(FanPollFrame, { proxy, pollId: 'poll-1' }))));
    `);
    expect(html).toMatch(/^<main><fan-poll[ >]/);
    expect(html).toContain('<fan-poll-list');
    expect(html).toContain('data-fan-poll-frame="loading"');
  });
});
