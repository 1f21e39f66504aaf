import { describe, expect, it } from 'vitest';
import { localPorts } from '../local-defaults.ts';
import { parseStartOptions, StartOptionError } from './start-options.ts';

describe('npm start options', () => {
  it('defaults to the embedded default ports and no forced rebuild', () => {
    expect(parseStartOptions([])).toEqual({
      sandboxApiPort: localPorts.sandboxApi,
      sandboxAuthPort: localPorts.sandboxAuth,
      proxyPort: localPorts.proxy,
      demoPort: localPorts.demo,
      rebuild: false,
    });
  });

  it('takes every port and --rebuild from flags', () => {
    const options = parseStartOptions([
      '--sandbox-api-port=5010',
      '--sandbox-auth-port',
      '5011',
      '--proxy-port=5020',
      '--demo-port=5030',
      '--rebuild',
    ]);
    expect(options).toEqual({
      sandboxApiPort: 5010,
      sandboxAuthPort: 5011,
      proxyPort: 5020,
      demoPort: 5030,
      rebuild: true,
    });
  });

  it.each(['0', '65536', 'abc', '-1', '40.5'])('refuses port %s with an error naming the flag', (value) => {
    expect(() => parseStartOptions([`--proxy-port=${value}`])).toThrow(
      new StartOptionError(`--proxy-port must be a port from 1 to 65535, not "${value}".`),
    );
  });

  it('refuses an unknown flag with a typed error', () => {
    expect(() => parseStartOptions(['--prox-port=1'])).toThrow(StartOptionError);
  });
});
