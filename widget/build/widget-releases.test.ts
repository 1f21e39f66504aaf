import { describe, expect, it } from 'vitest';
import { maxRetiredBuilds, mergeReleases, retentionDays, type WidgetRelease } from './widget-releases.ts';

const day = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-25T12:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * day).toISOString();
const release = (version: string, builtDaysAgo: number, retiredDaysAgo?: number): WidgetRelease => ({
  version,
  builtAt: daysAgo(builtDaysAgo),
  ...(retiredDaysAgo === undefined ? {} : { retiredAt: daysAgo(retiredDaysAgo) }),
  files: [`chunks/page-widget-${version}.js`],
});

describe('mergeReleases', () => {
  it('puts the new build first and retires the one it replaces now', () => {
    const merged = mergeReleases(
      { version: '0.2.0', files: ['chunks/a-New12345.js'] },
      [release('0.1.0', 40)],
      now,
    );
    expect(merged.releases).toEqual([
      { version: '0.2.0', builtAt: now.toISOString(), files: ['chunks/a-New12345.js'] },
      { ...release('0.1.0', 40), retiredAt: now.toISOString() },
    ]);
  });

  it(`keeps a retired build ${retentionDays} days after it was replaced, and no longer`, () => {
    const kept = mergeReleases(
      { version: '0.3.0', files: [] },
      [release('0.2.0', 60, retentionDays - 1), release('0.1.0', 90, retentionDays + 1)],
      now,
    );
    expect(kept.releases.map(({ version }) => version)).toEqual(['0.3.0', '0.2.0']);
  });

  it(`keeps at most ${maxRetiredBuilds} retired builds, the newest`, () => {
    const many = Array.from({ length: maxRetiredBuilds + 5 }, (_, at) => release(`0.1.${at}`, at + 1, at));
    const merged = mergeReleases({ version: '0.2.0', files: [] }, many, now);
    expect(merged.releases).toHaveLength(maxRetiredBuilds + 1);
    expect(merged.releases.at(-1)?.version).toBe(`0.1.${maxRetiredBuilds - 1}`);
  });

  it('drops a build whose every file ships again (a rebuild of the same code)', () => {
    const same = release('0.1.0', 1);
    const merged = mergeReleases({ version: '0.1.0', files: same.files }, [same], now);
    expect(merged.releases).toHaveLength(1);
  });
});
