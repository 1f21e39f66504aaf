import { describe, expect, it } from 'vitest';
import { choosePreset, presetSummary } from './preset-choice.ts';

describe('choosePreset', () => {
  it('is production by default, never from the platform URLs', () => {
    const loopback = {
      FAN_POLLS_PLATFORM_API_URL: 'http://127.0.0.1:4010',
      FAN_POLLS_PLATFORM_AUTH_URL: 'http://127.0.0.1:4011',
    };
    for (const source of [{}, loopback]) {
      expect(choosePreset(source)).toEqual({
        preset: 'production',
        reason: 'the default: neither FAN_POLLS_PRESET nor NODE_ENV=production is set',
        chosen: false,
        problems: [],
      });
    }
  });

  it('is what FAN_POLLS_PRESET says, and production with NODE_ENV=production', () => {
    expect(presetSummary(choosePreset({ FAN_POLLS_PRESET: 'sandbox', NODE_ENV: 'development' }))).toBe(
      'sandbox (FAN_POLLS_PRESET=sandbox)',
    );
    expect(presetSummary(choosePreset({ NODE_ENV: 'production' }))).toBe('production (NODE_ENV=production)');
    expect(presetSummary(choosePreset({ NODE_ENV: 'production', FAN_POLLS_PRESET: 'production' }))).toBe(
      'production (FAN_POLLS_PRESET=production, NODE_ENV=production)',
    );
    expect(presetSummary(choosePreset({ FAN_POLLS_PRESET: 'sandbox' }), 'npm start')).toBe(
      'sandbox (FAN_POLLS_PRESET=sandbox, set by npm start)',
    );
  });

  it('stays production when NODE_ENV=production meets FAN_POLLS_PRESET=sandbox, and names both', () => {
    const choice = choosePreset({ NODE_ENV: 'production', FAN_POLLS_PRESET: 'sandbox' });
    expect(choice.preset).toBe('production');
    expect(choice.problems).toEqual([
      'FAN_POLLS_PRESET=sandbox cannot be used with NODE_ENV=production: unset one of them (production needs its own settings).',
    ]);
  });

  it('falls back to production on a value it does not know (the table reader names it)', () => {
    const choice = choosePreset({ FAN_POLLS_PRESET: 'local' });
    expect(choice.preset).toBe('production');
    expect(choice.chosen).toBe(false);
    expect(choice.problems).toEqual([]);
  });
});
