import { describePubSub } from './pub-sub.conformance.ts';
import { MemoryPubSub } from './pub-sub.ts';

describePubSub('memory', () => {
  const pubSub = new MemoryPubSub();
  return Promise.resolve({ instances: [pubSub, pubSub], close: () => pubSub.close() });
});
