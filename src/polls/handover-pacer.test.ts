import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Poll } from '../platform/types.ts';
import { adaptivePacer } from './adaptive-pacer.ts';
import { handOverPacer } from './handover-pacer.ts';
import {
  createPacedLivePollStore,
  type LivePollStore,
  type MakePacer,
  type PollBatch,
} from './live-store-core.ts';
import { createLivePollStore } from './live-store.ts';
import { ManualPageSignals } from './page-signals.ts';
import { fixtureTimes as t, pollFixture } from './poll-fixture.ts';

afterEach(() => {
  vi.useRealTimers();
});
beforeEach(() => {
  vi.useFakeTimers({ now: t.whileOpen });
});

/** The instants (ms after the start) a store built by `make` reads `poll`, over `ms`. */
async function readTimes(
  make: (fetchPolls: (ids: readonly string[]) => Promise<PollBatch>) => LivePollStore,
  poll: Poll,
  ms: number,
  answer: (at: number) => PollBatch | Error = () => [poll],
): Promise<number[]> {
  vi.setSystemTime(t.whileOpen);
  const start = Date.now();
  const times: number[] = [];
  const store = make((ids) => {
    const at = Date.now() - start;
    times.push(at);
    const answered = answer(at);
    expect(ids).toEqual([poll.id]);
    return answered instanceof Error ? Promise.reject(answered) : Promise.resolve(answered);
  });
  store.subscribe(poll.id, () => undefined);
  await vi.advanceTimersByTimeAsync(ms);
  store.dispose();
  return times;
}

const options = { random: () => 1 };
const adaptive = (fetchPolls: (ids: readonly string[]) => Promise<PollBatch>) =>
  createLivePollStore({ fetchPolls, signals: new ManualPageSignals(), ...options });
/** Handed over once the pacer's import answers, `loadMs` later. */
const handedOver =
  (loadMs: number, load?: () => Promise<MakePacer>) =>
  (fetchPolls: (ids: readonly string[]) => Promise<PollBatch>) =>
    createPacedLivePollStore(
      { fetchPolls, signals: new ManualPageSignals() },
      handOverPacer(
        load ??
          (() =>
            new Promise<MakePacer>((resolve) => {
              setTimeout(() => {
                resolve(adaptivePacer(options));
              }, loadMs);
            })),
      ),
    );

describe('handOverPacer', () => {
  it('reads as the adaptive pacer does once handed over, whatever the phase', async () => {
    const polls = [
      pollFixture({ id: 'open' }),
      pollFixture({ id: 'soon', openAt: new Date(t.whileOpen + 70_000).toISOString() }),
    ];
    for (const poll of polls)
      expect(await readTimes(handedOver(300), poll, 180_000)).toEqual(
        await readTimes(adaptive, poll, 180_000),
      );
  });

  it('plans the next read from the first answer’s freshness', async () => {
    const poll = pollFixture({ id: 'fresh' });
    const batch = (at: number): PollBatch => Object.assign([poll], { freshForMs: at === 0 ? 2000 : NaN });
    expect(await readTimes(handedOver(300), poll, 10_000, batch)).toEqual(
      await readTimes(adaptive, poll, 10_000, batch),
    );
  });

  it('reads nothing more after a failure before the hand-over, then backs off as the adaptive pacer', async () => {
    const poll = pollFixture({ id: 'failing' });
    const failFirst = (at: number) => (at === 0 ? new TypeError('fetch failed') : [poll]);
    expect(await readTimes(handedOver(300), poll, 60_000, failFirst)).toEqual(
      await readTimes(adaptive, poll, 60_000, failFirst),
    );
  });

  it('tries the pacer’s import again when it failed, and paces once it loads', async () => {
    let attempts = 0;
    const load = () => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(adaptivePacer(options));
    };
    const times = await readTimes(handedOver(0, load), pollFixture({ id: 'retry' }), 12_000);
    expect(attempts).toBe(2);
    // Read at once; the import failed, and succeeded 5 s later: the next read was due then already.
    expect(times.map((ms) => Math.round(ms / 1000))).toEqual([0, 5, 10]);
  });
});
