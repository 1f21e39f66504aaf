import type { ApprovedSite } from '../shared/messages.ts';
import { isRecord, TypedStorageItem, type StorageAreaLike } from '../shared/typed-storage.ts';

export const approvedSitesKey = 'approvedSites';

function parseSites(value: unknown): ApprovedSite[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((entry: unknown) =>
    isRecord(entry) && typeof entry['origin'] === 'string' && typeof entry['approvedAt'] === 'number'
      ? [{ origin: entry['origin'], approvedAt: entry['approvedAt'] }]
      : [],
  );
}

/** Sites (exact origins) the fan approved for votes in an extension window; kept where no content script writes. */
export class ApprovedSites {
  readonly #item: TypedStorageItem<ApprovedSite[]>;

  constructor(area: StorageAreaLike) {
    this.#item = new TypedStorageItem(area, approvedSitesKey, [], parseSites);
  }

  list(): Promise<ApprovedSite[]> {
    return this.#item.get();
  }

  async isApproved(origin: string): Promise<boolean> {
    return (await this.list()).some((site) => site.origin === origin);
  }

  async approve(origin: string, now: number): Promise<void> {
    const sites = (await this.list()).filter((site) => site.origin !== origin);
    await this.#item.set([...sites, { origin, approvedAt: now }]);
  }

  async revoke(origin: string): Promise<ApprovedSite[]> {
    const sites = (await this.list()).filter((site) => site.origin !== origin);
    await this.#item.set(sites);
    return sites;
  }
}
