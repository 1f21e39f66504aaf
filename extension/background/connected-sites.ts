import { isRecord } from '../../src/contracts/is-record.ts';
import { isUuid } from '../shared/bridge-shape.ts';
import type { ConnectedSite, DisplayedPolls, SiteActivity } from '../shared/messages.ts';
import { TypedStorageItem, type StorageAreaLike } from '../shared/typed-storage.ts';

const connectedSitesKey = 'connectedSites';

const noActivity: SiteActivity = { reads: 0, proposals: 0, votes: 0 };

function count(value: unknown): number {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : 0;
}

/** Most poll ids and clubs one connection records. */
const maxShownPolls = 50;
const maxClubs = 10;

function ids(value: unknown, max: number): string[] {
  return Array.isArray(value) ? [...new Set(value.filter(isUuid))].slice(0, max) : [];
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
        clubs: ids(entry['clubs'], maxClubs),
        shownPollIds: ids(entry['shownPollIds'], maxShownPolls),
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

  async site(origin: string): Promise<ConnectedSite | undefined> {
    return (await this.list()).find((site) => site.origin === origin);
  }

  /** Connects a site (again): what it displays now replaces what it displayed before. */
  add(origin: string, now: number, displayed: DisplayedPolls): Promise<ConnectedSite[]> {
    const shown = {
      clubs: ids(displayed.partnerIds, maxClubs),
      shownPollIds: ids(displayed.pollIds, maxShownPolls),
    };
    return this.#update((sites) =>
      sites.some((site) => site.origin === origin)
        ? sites.map((site) => (site.origin === origin ? { ...site, ...shown } : site))
        : [...sites, { origin, connectedAt: now, activity: noActivity, ...shown }],
    );
  }

  /** The clubs of the polls the site displayed, once read with the fan's token: those ids are resolved. */
  addClubs(origin: string, clubs: readonly string[]): Promise<ConnectedSite[]> {
    return this.#update((sites) =>
      sites.map((site) =>
        site.origin === origin
          ? { ...site, clubs: ids([...(site.clubs ?? []), ...clubs], maxClubs), shownPollIds: [] }
          : site,
      ),
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
