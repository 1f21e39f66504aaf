// The npm package as a partner's app gets it: `npm pack` of `dist/package/`, installed offline with TypeScript, React
// and @types/react into a fresh project in a temporary folder (test/support/packed-package-project.ts), whose code imports
// every entry, the elements and the React components; `tsc` must pass, and must fail where the types say it should.
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackedPackageProject } from '../support/packed-package-project.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let project = '';

const partnerApp = `
import { FanPoll, FanPollList, defineFanPolls, fanPollErrorCodes, loadFanPollFrame, version, type FanPollErrorCode } from 'fan-polls';
import { FanPoll as CardClass, FanPollVotedEvent } from 'fan-polls/fan-poll';
import { FanPollList as ListClass } from 'fan-polls/fan-poll-list';
import { fanPollFrameUrl, type FanPollFrameElement } from 'fan-polls/fan-poll-frame';
import 'fan-polls/define';
import { FanPoll as Card, FanPollFrame, FanPollList as List } from 'fan-polls/react';

defineFanPolls({ proxy: 'https://polls.club.example' });
const card: FanPoll = document.createElement('fan-poll');
card.pollId = 'poll-1';
card.theme = 'dark';
const list: FanPollList = document.createElement('fan-poll-list');
list.proxy = 'https://polls.club.example';
card.addEventListener('fan-poll-voted', (event) => {
  const answer: string = event.detail.answerId;
  const campaign: string | undefined = event.detail.tracking.campaign;
  console.log(answer, campaign, event instanceof FanPollVotedEvent);
});
card.addEventListener('fan-poll-error', (event) => console.log(fanPollErrorCodes[event.detail.code]));
const code: FanPollErrorCode = 'load-failed';
const sameClass: typeof CardClass = FanPoll;
const sameList: typeof ListClass = FanPollList;
const frameUrl: string = fanPollFrameUrl('https://polls.club.example');
const frame = document.querySelector('fan-poll-frame') as FanPollFrameElement | null;
void loadFanPollFrame('https://polls.club.example');
console.log(version, sameClass, sameList, frameUrl, frame, code);

export const app = (
  <>
    <Card
      pollId="poll-1"
      proxy="https://polls.club.example"
      theme="dark"
      campaign="spring"
      onVoted={(event) => console.log(event.detail.answerId, event.detail.voteStatus)}
      onSignIn={(event) => console.log(event.detail.stage === 'signed-in')}
    />
    <List proxy="https://polls.club.example" partnerIds="club-1" limit={6} referrer="club-site" onError={(event) => console.log(event.detail.code)} />
    <FanPollFrame proxy="https://polls.club.example" pollId="poll-1" lang="fr" onReady={(event) => console.log(event.detail.pollId)} />
    <fan-poll poll-id="poll-1" proxy="https://polls.club.example" theme="auto" transparent campaign="spring" className="card" />
    <fan-poll-list partner-ids="club-1" limit={6} order-by="closeAt" referrer="club-site" />
    <fan-poll-frame poll-id="poll-1" theme="dark" lang="de" />
  </>
);
`;

/** What the types must refuse: each line is an error for \`tsc\`. */
const wrongUses = `
import { FanPoll as Card, FanPollFrame } from 'fan-polls/react';
export const wrong = [
  <Card pollId={3} />,
  <Card pollId="p" theme="purple" />,
  <Card pollId="p" onVoted={(event) => event.detail.noSuchField} />,
  <FanPollFrame pollId="p" />,
  <fan-poll poll-id="p" theme="purple" />,
];
`;

/** TSX without React: the tags in the global \`JSX\` namespace, for any \`h\`-style factory. */
const plainTsx = `
import { fanPollErrorCodes, type FanPollErrorDetail } from 'fan-polls';
declare global {
  namespace JSX {
    interface Element { readonly tag: string }
  }
}
declare function h(tag: string, props: object | null, ...children: unknown[]): JSX.Element;
export const card = <fan-poll poll-id="poll-1" proxy="https://polls.club.example" transparent campaign="spring" />;
export const list = <fan-poll-list partner-ids="club-1" limit={6} class="polls" />;
export const banner = <fan-poll-frame poll-id="poll-1" theme="dark" />;
export const advice = (detail: FanPollErrorDetail): string => fanPollErrorCodes[detail.code];
`;

/** The type checks, one `tsc` each, started together once the project is installed: what `tsc` printed. */
let checks: { app: Promise<string>; wrongUses: Promise<string>; plain: Promise<string> };

beforeAll(async () => {
  project = await createPackedPackageProject({
    dependencies: ['react'],
    devDependencies: ['typescript', '@types/react'],
  });
  const compilerOptions = {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    jsx: 'react-jsx',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
  };
  // Each program in its own folder, with the one file it checks as `app.tsx`: the partner's app, the refused uses
  // (which import `fan-polls/react` only, so they see no other entry's declarations), and the TSX for another runtime
  // (a classic `h` factory, no React types anywhere), right and with an unknown theme, two files of one program.
  const programs = {
    app: { compilerOptions, files: { 'app.tsx': partnerApp } },
    wrongUses: { compilerOptions, files: { 'app.tsx': wrongUses } },
    plain: {
      compilerOptions: { ...compilerOptions, jsx: 'react', jsxFactory: 'h' },
      files: { 'app.tsx': plainTsx, 'wrong.tsx': plainTsx.replace('theme="dark"', 'theme="purple"') },
    },
  };
  for (const [name, program] of Object.entries(programs)) {
    await mkdir(join(project, name));
    for (const [file, code] of Object.entries(program.files))
      await writeFile(join(project, name, file), code);
    await writeFile(
      join(project, name, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: program.compilerOptions, include: Object.keys(program.files) }),
    );
  }
  // Three `tsc` side by side, after the pack and the offline install: the time allowed is for all of them on a
  // loaded 2-core runner.
  checks = { app: typeCheck('app'), wrongUses: typeCheck('wrongUses'), plain: typeCheck('plain') };
  await Promise.all(Object.values(checks));
}, 300_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

/** `tsc -p` of the program in the project's folder `name`: what it printed, '' when it found no error. */
async function typeCheck(name: string): Promise<string> {
  const tsc = join(project, 'node_modules/typescript/bin/tsc');
  try {
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: join(project, name) });
    return '';
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

/** `tsc`'s errors, one entry each (an error's own lines and the indented ones under it). */
const errorsOf = (output: string): string[] =>
  output.split(/\n(?=\S)/).filter((error) => error.trim() !== '');

describe('the npm package fan-polls, packed and installed into a fresh TypeScript project', () => {
  it('is named and versioned as the repository, declares its side effects, and ships only its own files', async () => {
    const installed = `${project}/node_modules/fan-polls/`;
    const manifest = JSON.parse(await readFile(`${installed}package.json`, 'utf8')) as Record<
      string,
      unknown
    >;
    const rootManifest = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'fan-polls', version: rootManifest.version, type: 'module' });
    expect(manifest.private).toBeUndefined();
    expect(manifest.sideEffects).toEqual(['./define.js', './react.js', './hydrate.js']);
    expect(Object.keys(manifest.exports as object)).toEqual([
      '.',
      './fan-poll',
      './fan-poll-list',
      './fan-poll-frame',
      './define',
      './react',
      './ssr',
      './hydrate',
      './custom-elements.json',
      './package.json',
    ]);
    const files = await readdir(installed);
    expect(files).toEqual(
      expect.arrayContaining(['index.js', 'react.js', 'custom-elements.json', 'types', 'cdn', 'docs']),
    );
    // Where it comes from, and the reference its README points to.
    expect(manifest).toMatchObject({
      repository: { type: 'git', url: 'git+https://github.com/fan-polls/fan-polls.git' },
      homepage: 'https://github.com/fan-polls/fan-polls#readme',
      unpkg: './cdn/fan-polls.js',
    });
    expect(await readFile(`${installed}docs/reference.md`, 'utf8')).toBe(
      await readFile(`${root}docs/reference.md`, 'utf8'),
    );
    // No tooling, tests or sources of the repository.
    expect(files.filter((file) => /\.test\.|^src$|^widget$|^node_modules$/.test(file))).toEqual([]);
  });

  it('type-checks an app that imports every entry, the elements, their events and the React components', async () => {
    expect(await checks.app).toBe('');
  });

  it('types the three tags in TSX without React (the global JSX namespace), and refuses an unknown theme', async () => {
    const errors = errorsOf(await checks.plain);
    expect(errors.filter((error) => !error.startsWith('wrong.tsx('))).toEqual([]);
    expect(errors.join('\n')).toMatch(/^wrong\.tsx\(11,\d+\): error TS2322: Type '"purple"'/m);
  });

  it('refuses wrong props: a number as poll id, an unknown theme, an unknown detail field, a frame without a proxy', async () => {
    const errors = (await checks.wrongUses).split('\n').filter((line) => line.includes('error TS'));
    expect(errors.map((line) => /app\.tsx\((\d+),/.exec(line)?.[1])).toEqual(['4', '5', '6', '7', '8']);
  });

  it('carries custom-elements.json with all three elements, every attribute, event detail and CSS default', async () => {
    const text = await readFile(`${project}/node_modules/fan-polls/custom-elements.json`, 'utf8');
    const manifest = JSON.parse(text) as {
      modules: {
        path: string;
        declarations: {
          tagName?: string;
          attributes?: { name: string }[];
          events?: { name: string; description?: string }[];
          cssProperties?: { name: string; default?: string }[];
          cssParts?: { name: string }[];
        }[];
      }[];
    };
    const elements = new Map(
      manifest.modules.flatMap((module) =>
        module.declarations.flatMap((declaration) =>
          declaration.tagName ? [[declaration.tagName, { ...declaration, path: module.path }] as const] : [],
        ),
      ),
    );
    expect([...elements.keys()].sort()).toEqual(['fan-poll', 'fan-poll-frame', 'fan-poll-list']);
    const card = elements.get('fan-poll')!;
    expect(card.path).toBe('fan-poll.js');
    expect(card.attributes?.map((attribute) => attribute.name)).toEqual(
      expect.arrayContaining([
        'poll-id',
        'proxy',
        'theme',
        'lang',
        'referrer',
        'campaign',
        'param1',
        'param2',
        'param3',
      ]),
    );
    for (const event of card.events ?? [])
      expect(event.description, event.name).toMatch(/Detail: `pollId`, `tracking`/);
    expect(card.events).toHaveLength(8);
    expect(card.cssParts?.length).toBeGreaterThan(5);
    for (const property of card.cssProperties ?? []) expect(property.default, property.name).toBeTruthy();
    const frame = elements.get('fan-poll-frame')!;
    expect(frame.attributes?.map((attribute) => attribute.name)).toEqual(
      expect.arrayContaining(['poll-id', 'theme', 'lang', 'referrer', 'param3']),
    );
    expect(frame.events).toHaveLength(8);
    expect(elements.get('fan-poll-list')!.attributes?.map((attribute) => attribute.name)).toContain(
      'partner-ids',
    );
  });
});
