// One conformance suite for every `PubSub` backend: what two instances on one backend hear of each other's messages.
// Real time; every wait is on a message arriving (or, for "nothing arrives", on a later message that does).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PubSub } from './pub-sub.ts';

export interface PubSubUnderTest {
  /** Two instances on one backend (in memory, one process: the same object twice). */
  readonly instances: readonly [PubSub, PubSub];
  close(): Promise<void>;
}

/** Resolves with the messages heard once `count` have arrived. */
function collector(count: number): { listener: (message: string) => void; heard: Promise<string[]> } {
  const messages: string[] = [];
  let done: (messages: string[]) => void = () => undefined;
  const heard = new Promise<string[]>((resolve) => {
    done = resolve;
  });
  return {
    listener: (message) => {
      messages.push(message);
      if (messages.length === count) done(messages);
    },
    heard,
  };
}

export function describePubSub(name: string, open: () => Promise<PubSubUnderTest>): void {
  describe(`${name}: publish and subscribe`, () => {
    let current: PubSubUnderTest;
    beforeEach(async () => {
      current = await open();
    });
    afterEach(async () => {
      await current.close();
    });

    it('delivers a message to every subscriber of its channel on every instance, the publisher’s included', async () => {
      const [one, two] = current.instances;
      const onOne = collector(2);
      const onTwo = collector(2);
      await one.subscribe('test-copies', onOne.listener);
      await two.subscribe('test-copies', onTwo.listener);
      await one.publish('test-copies', 'first');
      await two.publish('test-copies', 'second');
      expect((await onOne.heard).sort()).toEqual(['first', 'second']);
      expect((await onTwo.heard).sort()).toEqual(['first', 'second']);
    });

    it('keeps channels apart and stops delivering to a subscription once it is ended', async () => {
      const [one, two] = current.instances;
      const endedHeard: string[] = [];
      const otherHeard: string[] = [];
      const still = collector(2);
      const firstArrived = collector(1);
      const unsubscribe = await two.subscribe('test-a', (message) => {
        endedHeard.push(message);
        firstArrived.listener(message);
      });
      await two.subscribe('test-a', still.listener);
      await two.subscribe('test-b', (message) => otherHeard.push(message));
      await one.publish('test-a', 'before');
      // A publish is answered once the backend took it, not once it was delivered: `before` arrives, then the end.
      await firstArrived.heard;
      await unsubscribe();
      await one.publish('test-a', 'after');
      // Messages of one channel arrive in order: once `after` reached the channel's other subscriber, it was delivered.
      expect(await still.heard).toEqual(['before', 'after']);
      expect(endedHeard).toEqual(['before']);
      expect(otherHeard).toEqual([]);
    });
  });
}
