import type { SharedHold } from '../platform-guard.ts';
import type { KeyValueStore } from './key-value-store.ts';

const holdKey = 'platform-hold';

/** The platform guard's hold in the shared store: the latest end any instance set, expiring by itself. */
export function sharedHold(store: KeyValueStore): SharedHold {
  return {
    async read() {
      const value = await store.get(holdKey);
      return value === undefined ? undefined : Number(value);
    },
    async write(until) {
      const ms = Math.ceil(until - Date.now());
      if (ms <= 0) return;
      // Keep the later of two ends: a shorter hold never shortens a longer one.
      const current = Number((await store.get(holdKey)) ?? 0);
      if (current >= until) return;
      await store.set(holdKey, String(until), ms);
    },
  };
}
