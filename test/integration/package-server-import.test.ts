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

  it('renders a card to HTML with fan-polls/ssr (declarative shadow DOM, escaped) and leaves no DOM behind', async () => {
    const output = await inNode(`
      const { renderFanPoll } = await import(${JSON.stringify(`${root}dist/package/ssr.js`)});
      const answer = (id, text) => ({ id, answer: text, votePercentage: '50', totalVoteTokensUsed: 10,
        statistics: { uniqueAnswerVoteCount: 1 } });
      const poll = { id: 'poll-1', partnerId: 'club-1', partnerName: 'Riverside FC', partnerImages: [],
        question: 'Who <b>scores</b> first?', openAt: new Date(Date.now() - 3.6e6).toISOString(),
        closeAt: new Date(Date.now() + 8.64e7).toISOString(), isBound: false, isQuorumReached: false, quorum: '0.2',
        currentQuorumPercentage: '0.1', usedTokenCount: 20, tokenLimit: 1000, status: 'open', information: '',
        answers: [answer('a1', 'Ada </script><script>alert(1)</script>'), answer('a2', 'Bea')],
        statistics: { uniqueVoteCount: 2 } };
      const html = await renderFanPoll(poll, { proxy: 'https://polls.club.example', lang: 'fr' });
      console.log(JSON.stringify({ html, globals: [typeof window, typeof document, typeof location] }));
    `);
    const { html, globals } = JSON.parse(output) as { html: string; globals: string[] };
    expect(globals).toEqual(['undefined', 'undefined', 'undefined']);
    expect(html).toContain('<template shadowroot="open" shadowrootmode="open">');
    // The poll's strings as text, in the language asked for; none can close the data block or start markup.
    expect(html).toContain('Who &lt;b&gt;scores&lt;/b&gt; first?');
    expect(html).toContain('Se connecter pour voter');
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    // No radio is drawn checked (Lit SSR would write `checked="false"`).
    expect(html).not.toMatch(/ checked(=|\s|>)/);
  });
});
