import { describe, expect, it } from 'vitest';
import { waitUntil } from './wait-until.ts';

describe('waitUntil', () => {
  it('returns the first truthy answer, looking again after a falsy one or a failed look', async () => {
    let looks = 0;
    const answer = await waitUntil(
      () => {
        looks += 1;
        if (looks === 1) throw new Error('not there yet');
        return looks === 2 ? undefined : { looks };
      },
      'the third look',
      5_000,
      1,
    );
    expect(answer).toEqual({ looks: 3 });
  });

  it('names what it waited for once the time is up', async () => {
    await expect(waitUntil(() => false, 'the card', 50, 1)).rejects.toThrow(
      'Timed out after 50 ms waiting for the card',
    );
  });

  it('fails, saying so, when a look gets no answer by the end of its time', async () => {
    await expect(waitUntil(() => new Promise<boolean>(() => undefined), 'the prompt', 50, 1)).rejects.toThrow(
      'Timed out after 50 ms waiting for the prompt (its last look got no answer)',
    );
  });
});
