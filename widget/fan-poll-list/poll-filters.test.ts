import { describe, expect, it } from 'vitest';
import { listQuery } from './poll-filters.ts';

describe('list filters', () => {
  it('maps attributes to the spec query parameters', () => {
    const attributes: Record<string, string> = {
      search: 'player',
      'partner-ids': 'p1, p2',
      'quorum-reached': 'true',
      'open-from': '2026-05-01T00:00:00',
      limit: '5',
      'order-by': 'openAt',
      direction: 'desc',
      unknown: 'x',
    };
    expect(listQuery((name) => attributes[name] ?? null).toString()).toBe(
      new URLSearchParams([
        ['search', 'player'],
        ['quorumReached', 'true'],
        ['openAt[from]', '2026-05-01T00:00:00'],
        ['limit', '5'],
        ['orderBy', 'openAt'],
        ['direction', 'desc'],
        ['partnerIds[]', 'p1'],
        ['partnerIds[]', 'p2'],
      ]).toString(),
    );
  });

  it('ignores oversized values', () => {
    expect(listQuery((name) => (name === 'search' ? 'x'.repeat(201) : null)).toString()).toBe('');
  });
});
