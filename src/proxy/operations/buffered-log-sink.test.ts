import { afterEach, describe, expect, it, vi } from 'vitest';
import { bufferedLogSink, type LogDestination } from './buffered-log-sink.ts';

function recordingDestination(): LogDestination & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    write: (chunk) => writes.push(chunk),
    writeUrgent: (level, line) => writes.push(`${level}:${line}\n`),
  };
}

describe('bufferedLogSink', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes info lines together once per interval, in order', () => {
    vi.useFakeTimers();
    const destination = recordingDestination();
    const buffered = bufferedLogSink(destination, { flushMs: 100 });
    buffered.sink('info', 'a');
    buffered.sink('info', 'b');
    expect(destination.writes).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(destination.writes).toEqual(['a\nb\n']);
    vi.advanceTimersByTime(100);
    expect(destination.writes).toHaveLength(1);
    buffered.close();
  });

  it('writes at once past maxChars, and warnings right away after what was buffered', () => {
    const destination = recordingDestination();
    const buffered = bufferedLogSink(destination, { flushMs: 60_000, maxChars: 4 });
    buffered.sink('info', 'ab');
    buffered.sink('info', 'cd');
    expect(destination.writes).toEqual(['ab\ncd\n']);
    buffered.sink('info', 'e');
    buffered.sink('error', 'boom');
    expect(destination.writes).toEqual(['ab\ncd\n', 'e\n', 'error:boom\n']);
    buffered.close();
  });

  it('loses nothing on close, and writes later lines straight through', () => {
    const destination = recordingDestination();
    const buffered = bufferedLogSink(destination, { flushMs: 60_000 });
    for (let index = 0; index < 1000; index += 1) buffered.sink('info', String(index));
    buffered.close();
    buffered.sink('info', 'after');
    const lines = destination.writes.join('').split('\n').filter(Boolean);
    expect(lines).toEqual([...Array.from({ length: 1000 }, (_, index) => String(index)), 'after']);
  });
});
