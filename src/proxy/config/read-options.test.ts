import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ProxyConfig } from '../config.ts';
import { boolean, derived, integer, none, oneOf, required, text } from './option-kinds.ts';
import { readOptions } from './read-options.ts';

const table = {
  port: integer({ env: 'PORT', min: 0, max: 10, default: 3, doc: '' }),
  url: text({
    env: 'URL',
    default: { sandbox: derived('`:<PORT>`', (read) => `:${String(read.port)}`), production: required },
    doc: '',
  }),
  mode: oneOf({ env: 'MODE', values: ['a', 'b', 'c'], default: 'a', doc: '' }),
  on: boolean({ env: 'ON', default: { sandbox: true, production: false }, doc: '' }),
  token: text({ env: 'TOKEN', default: none, check: (value) => value.length > 3, rule: 'is short', doc: '' }),
};

describe('readOptions', () => {
  it('reads a plain object with the preset’s defaults, a default may use a setting above it', () => {
    const sandbox = readOptions(table, { PORT: '7' }, 'sandbox');
    expect(sandbox.values).toEqual({ port: 7, url: ':7', mode: 'a', on: true, token: undefined });
    expect(sandbox.problems).toEqual([]);
    expect(readOptions(table, { URL: 'x' }, 'production').values.on).toBe(false);
  });

  it('trims, counts blank as unset and tells which options the source set', () => {
    const read = readOptions(table, { PORT: ' 4 ', MODE: '  ', TOKEN: 'long enough' }, 'sandbox');
    expect(read.values).toMatchObject({ port: 4, mode: 'a', token: 'long enough' });
    expect([...read.set]).toEqual(['port', 'token']);
  });

  it('names the variable and the rule for each problem, and never quotes a free text', () => {
    const read = readOptions(table, { PORT: '11', MODE: 'd', ON: 'yes', TOKEN: 'abc' }, 'production');
    expect(read.problems).toEqual([
      'PORT must be a whole number from 0 to 10, not "11".',
      'URL is required in production.',
      'MODE must be "a", "b" or "c", not "d".',
      'ON must be "true" or "false", not "yes".',
      'TOKEN is short.',
    ]);
    expect(read.values.port).toBe(3);
  });

  it('infers the settings’ types from the table', () => {
    const read = readOptions(table, {}, 'sandbox');
    expectTypeOf(read.values.port).toEqualTypeOf<number>();
    expectTypeOf(read.values.url).toEqualTypeOf<string>();
    expectTypeOf(read.values.mode).toEqualTypeOf<'a' | 'b' | 'c'>();
    expectTypeOf(read.values.token).toEqualTypeOf<string | undefined>();
    expectTypeOf<ProxyConfig['basicEncoding']>().toEqualTypeOf<'raw' | 'form-encoded'>();
    expectTypeOf<ProxyConfig['redisUrl']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ProxyConfig['allowedOrigins']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ProxyConfig['extensionOrigins']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ProxyConfig['port']>().toEqualTypeOf<number>();
    expectTypeOf<ProxyConfig['host']>().toEqualTypeOf<string>();
  });
});
