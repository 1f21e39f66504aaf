import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IndexedDbArea } from './indexeddb-area.ts';

// happy-dom has no IndexedDB: fake-indexeddb is a complete in-memory engine, one fresh factory per test.
const areaOn = (factory: IDBFactory, databaseName = 'fan-polls'): IndexedDbArea =>
  new IndexedDbArea(databaseName, 'vault', () => factory);

describe('IndexedDbArea', () => {
  it('reads nothing before a write, then what was written, key by key', async () => {
    const area = areaOn(new IDBFactory());
    expect(await area.get(['refreshToken', 'settings'])).toEqual({});
    await area.set({ refreshToken: 'rt-1', settings: { proxyUrl: 'https://polls.club.example' } });
    expect(await area.get('refreshToken')).toEqual({ refreshToken: 'rt-1' });
    expect(await area.get(['settings', 'missing'])).toEqual({
      settings: { proxyUrl: 'https://polls.club.example' },
    });
  });

  it('keeps falsy values: only a key never written is absent', async () => {
    const area = areaOn(new IDBFactory());
    await area.set({ zero: 0, empty: '', no: false, nothing: null });
    expect(await area.get(['zero', 'empty', 'no', 'nothing'])).toEqual({
      zero: 0,
      empty: '',
      no: false,
      nothing: null,
    });
  });

  it('overwrites a key, and removes one key or several', async () => {
    const area = areaOn(new IDBFactory());
    await area.set({ a: 1, b: 2, c: 3 });
    await area.set({ a: 10 });
    await area.remove('b');
    expect(await area.get(['a', 'b', 'c'])).toEqual({ a: 10, c: 3 });
    await area.remove(['a', 'c', 'never-written']);
    expect(await area.get(['a', 'b', 'c'])).toEqual({});
  });

  it('stores a copy: changing an object after writing it changes nothing stored', async () => {
    const area = areaOn(new IDBFactory());
    const sites = [{ origin: 'https://club.example', connectedAt: 1 }];
    await area.set({ sites });
    sites[0]!.origin = 'https://evil.example';
    sites.push({ origin: 'https://other.example', connectedAt: 2 });
    expect(await area.get('sites')).toEqual({ sites: [{ origin: 'https://club.example', connectedAt: 1 }] });
  });

  it('outlives its opener: a new area on the same database reads what the first wrote', async () => {
    const factory = new IDBFactory();
    await areaOn(factory).set({ refreshToken: 'rt-kept' });
    // As after the service worker was stopped and started again.
    expect(await areaOn(factory).get('refreshToken')).toEqual({ refreshToken: 'rt-kept' });
    expect(await areaOn(factory, 'another-database').get('refreshToken')).toEqual({});
  });

  it('serves concurrent calls from one opened database, each in its own transaction', async () => {
    const area = areaOn(new IDBFactory());
    await Promise.all(Array.from({ length: 20 }, (_, n) => area.set({ [`key-${n}`]: n })));
    const keys = Array.from({ length: 20 }, (_, n) => `key-${n}`);
    expect(Object.keys(await area.get(keys))).toHaveLength(20);
  });

  it('rejects when the database cannot be opened (a newer version already exists)', async () => {
    const factory = new IDBFactory();
    await new Promise<void>((resolve, reject) => {
      const request = factory.open('fan-polls', 2);
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => {
        reject(new Error('setup failed'));
      };
    });
    await expect(areaOn(factory).get('refreshToken')).rejects.toMatchObject({ name: 'VersionError' });
  });
});
