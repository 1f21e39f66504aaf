import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createJsonLogger, type LogFields } from './logger.ts';

describe('createJsonLogger', () => {
  it('writes each line as JSON.stringify writes its record, for any field names and values', () => {
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 24 }),
      fc.string({ maxLength: 24 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(undefined),
    );
    const name = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('requestId', 'route', 'ms', '__proto__'),
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 12 }),
        fc.dictionary(name, value, { maxKeys: 8 }),
        (event, fields: LogFields) => {
          const lines: string[] = [];
          const logger = createJsonLogger([], (_level, line) => lines.push(line));
          logger.log('warn', event, fields);
          const { time } = JSON.parse(lines[0] ?? '') as { time: unknown };
          // `fromEntries` defines each name as its own property (`__proto__` included), as the line holds it.
          const expected = Object.fromEntries([
            ['level', 'warn'],
            ['event', event],
            ...Object.entries(fields).filter(
              ([key, each]) => each !== undefined && !['time', 'level', 'event'].includes(key),
            ),
          ]) as Record<string, unknown>;
          // A plain comparison (vitest's matchers cost milliseconds a run); fast-check reports the counterexample.
          return typeof time === 'string' && lines[0] === JSON.stringify({ time, ...expected });
        },
      ),
      { numRuns: 200 },
    );
    // 200 runs take well under a second; the margin is for a loaded 2-core runner.
  }, 30_000);

  it('keeps the line’s own time, level and event, and scrubs secrets from every string', () => {
    const lines: string[] = [];
    const logger = createJsonLogger(['s3cret-value'], (_level, line) => lines.push(line));
    logger.log('info', 'request', { event: 'forged', level: 'error', route: 'a s3cret-value b', n: 1 });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'info',
      event: 'request',
      route: 'a [redacted] b',
      n: 1,
    });
  });
});
