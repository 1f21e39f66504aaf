import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  installCommand,
  locate,
  missingPrograms,
  missingProgramsReport,
  systemPrograms,
} from './system-programs.ts';

/** A machine whose only runnable files are `present`. */
const machine = (present: readonly string[]) => (path: string) => present.includes(path);

const everything = [
  '/usr/bin/chromium',
  '/usr/bin/firefox-esr',
  '/usr/bin/WebKitWebDriver',
  '/usr/bin/Xvfb',
  '/usr/bin/redis-server',
  '/usr/sbin/nginx',
  '/usr/bin/xdotool',
  '/usr/bin/scrot',
  '/usr/bin/openssl',
];
const debianPath = { PATH: '/usr/local/bin:/usr/bin:/bin' };

describe('the system programs npm test starts', () => {
  it('are the list .ci/run installs', () => {
    const ciRun = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    const installed = [...ciRun.matchAll(/missing\+=\(([\w.-]+)\)/g)].map((match) => match[1]);
    expect(
      systemPrograms({})
        .map((program) => program.debianPackage)
        .sort(),
    ).toEqual(installed.sort());
  });

  it('finds nothing missing on a Debian machine with all of them', () => {
    expect(missingPrograms(debianPath, machine(everything))).toEqual([]);
  });

  it('looks a bare name up on PATH and takes a path as it is', () => {
    const isExecutable = machine(['/opt/bin/Xvfb', '/usr/bin/chromium']);
    expect(locate('Xvfb', { PATH: '/usr/bin:/opt/bin' }, isExecutable)).toBe('/opt/bin/Xvfb');
    expect(locate('Xvfb', { PATH: '/usr/bin' }, isExecutable)).toBeUndefined();
    expect(locate('Xvfb', {}, isExecutable)).toBeUndefined();
    expect(locate('/usr/bin/chromium', { PATH: '' }, isExecutable)).toBe('/usr/bin/chromium');
  });

  it('honours CHROMIUM_PATH, FIREFOX_PATH and REDIS_SERVER_PATH instead of the Debian paths', () => {
    const env = {
      ...debianPath,
      CHROMIUM_PATH: '/opt/chromium/chrome',
      FIREFOX_PATH: '/opt/firefox/firefox',
      REDIS_SERVER_PATH: '/opt/redis/redis-server',
    };
    expect(missingPrograms(env, machine(everything)).map((program) => program.name)).toEqual([
      'chromium',
      'firefox-esr',
      'redis-server',
    ]);
    const elsewhere = ['/opt/chromium/chrome', '/opt/firefox/firefox', '/opt/redis/redis-server'];
    expect(missingPrograms(env, machine([...everything, ...elsewhere]))).toEqual([]);
  });

  it('takes nginx from PATH or from /usr/sbin, which is not on a user’s PATH', () => {
    const withoutNginx = everything.filter((path) => path !== '/usr/sbin/nginx');
    expect(missingPrograms(debianPath, machine([...withoutNginx, '/usr/bin/nginx']))).toEqual([]);
    expect(missingPrograms(debianPath, machine(withoutNginx)).map((program) => program.name)).toEqual([
      'nginx',
    ]);
  });

  it('names the one command that installs what is missing', () => {
    const missing = missingPrograms(debianPath, machine(['/usr/bin/chromium', '/usr/bin/redis-server']));
    expect(installCommand(missing)).toBe(
      'apt-get install -y firefox-esr webkit2gtk-driver xvfb nginx xdotool scrot openssl',
    );
    const report = missingProgramsReport(missing);
    expect(report).toContain('firefox-esr (looked for: /usr/bin/firefox-esr)');
    expect(report).toContain('nginx (looked for: nginx, /usr/sbin/nginx)');
    expect(report.split('\n').at(-1)).toBe(
      'Install them with: apt-get install -y firefox-esr webkit2gtk-driver xvfb nginx xdotool scrot openssl',
    );
  });
});
