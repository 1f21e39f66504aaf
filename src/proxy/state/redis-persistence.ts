import type { ProxyLogger } from '../logger.ts';
import type { RedisHealth } from './redis-health.ts';

/** What survives a Redis restart: everything (AOF), the last snapshot (RDB `save`), nothing, or unknown. */
export type RedisPersistence = 'append-only' | 'snapshots' | 'none' | 'unknown';

/** How long a persistence answer is reused (it changes only when an operator changes Redis). */
const recheckMs = 60_000;

/**
 * Whether Redis keeps sessions across its own restart (`CONFIG GET appendonly save`). Without the append-only file
 * a restart signs out every fan since the last snapshot (all of them without snapshots): the proxy says so at start
 * and on `/readyz`, a warning and not a refusal. A Redis with `CONFIG` disabled or renamed (managed services) is
 * `unknown`, not an error.
 */
export function persistenceCheck(health: RedisHealth, logger: ProxyLogger): () => Promise<RedisPersistence> {
  let checked: { at: number; answer: Promise<RedisPersistence> } | undefined;
  const check = async (): Promise<RedisPersistence> => {
    try {
      const config = await health.run((redis) => redis.configGet(['appendonly', 'save']));
      if (config.appendonly === 'yes') return 'append-only';
      return (config.save ?? '').trim() === '' ? 'none' : 'snapshots';
    } catch {
      return 'unknown';
    }
  };
  return () => {
    const now = Date.now();
    if (checked === undefined || now - checked.at >= recheckMs) {
      const answer = check();
      checked = { at: now, answer };
      void answer.then((persistence) => {
        if (persistence === 'none' || persistence === 'snapshots')
          logger.log('warn', 'redis_without_append_only_file', { persistence });
        // Unknown (Redis away, or CONFIG refused): ask again next time rather than keep a guess for a minute.
        if (persistence === 'unknown' && checked?.answer === answer) checked = undefined;
      });
    }
    return checked.answer;
  };
}

/** The `/readyz` warnings for a persistence answer. */
export function persistenceWarnings(persistence: RedisPersistence): string[] {
  if (persistence === 'none') return ['redis_without_persistence'];
  if (persistence === 'snapshots') return ['redis_without_append_only_file'];
  return [];
}
