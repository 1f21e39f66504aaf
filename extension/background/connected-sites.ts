import type { ConnectedSite, SiteActivity } from '../shared/messages.ts';
import { TypedStorageItem, type StorageAreaLike } from '../shared/typed-storage.ts';
import { isRecord } from '../../src/contracts/is-record.ts';

export const connectedSitesKey = 'connectedSites';

const noActivity: SiteActivity = { reads: 0, proposals: 0, votes: 0 };

function count(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}

function parseSites(value: unknown): ConnectedSite[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((entry: unknown) => {
    if (!isRecord(entry) || typeof entry['origin'] !== 'string' || typeof entry['connectedAt'] !== 'number') {
      return [];
    }
    const activity = isRecord(entry['activity']) ? entry['activity'] : {};
    return [
      {
        origin: entry['origin'],
        connectedAt: entry['connectedAt'],
        activity: {
          reads: count(activity['reads']),
          proposals: count(activity['proposals']),
          votes: count(activity['votes']),
        },
      },
    ];
  });
}

/**
 * The sites (exact origins) the fan connected, with what each did through the extension. Kept where no content script
 * writes (the extension's IndexedDB); one list for the signed-in fan, emptied at sign-out.
 */
export class ConnectedSites {
  readonly #item: TypedStorageItem<ConnectedSite[]>;
  /** Writes one after another: counts from concurrent requests must not overwrite each other. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(area: StorageAreaLike) {
    this.#item = new TypedStorageItem(area, connectedSitesKey, [], parseSites);
  }

  list(): Promise<ConnectedSite[]> {
    return this.#item.get();
  }

  async isConnected(origin: string): Promise<boolean> {
    return (await this.list()).some((site) => site.origin === origin);
  }

  add(origin: string, now: number): Promise<ConnectedSite[]> {
    return this.#update((sites) =>
      sites.some((site) => site.origin === origin)
        ? sites
        : [...sites, { origin, connectedAt: now, activity: noActivity }],
    );
  }

  remove(origin: string): Promise<ConnectedSite[]> {
    return this.#update((sites) => sites.filter((site) => site.origin !== origin));
  }

  clear(): Promise<ConnectedSite[]> {
    return this.#update(() => []);
  }

  /** Counts one thing a site did (a read, a proposal, a confirmed vote). */
  async record(origin: string, what: keyof SiteActivity): Promise<void> {
    await this.#update((sites) =>
      sites.map((site) =>
        site.origin === origin
          ? { ...site, activity: { ...site.activity, [what]: site.activity[what] + 1 } }
          : site,
      ),
    );
  }

  #update(change: (sites: ConnectedSite[]) => ConnectedSite[]): Promise<ConnectedSite[]> {
    const next = this.#queue.then(async () => {
      const sites = change(await this.list());
      await this.#item.set(sites);
      return sites;
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
