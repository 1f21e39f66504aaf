import { ExtensionError } from '../shared/extension-error.ts';
import type { ConnectedSite, DisplayedPolls, SiteActivity } from '../shared/messages.ts';
import type { ConnectedSites } from './connected-sites.ts';
import type { SiteAccess } from './site-access.ts';

export interface SiteConnectionHooks {
  /** What the site's open tabs display right now (card poll ids, list partner ids); read at connect time. */
  readonly displayedBy: (origin: string) => Promise<DisplayedPolls>;
  /** Runs when a site stops being heard (disconnected, or every site at sign-out): its open proposals end. */
  readonly onSiteEnded: (origin: string | undefined) => void;
}

const nothingDisplayed: DisplayedPolls = { pollIds: [], partnerIds: [] };

/**
 * Connecting and disconnecting sites: the stored list, the page bridge registered for exactly those sites, and their
 * host permissions. The list belongs to the signed-in fan: `forgetAll` runs whenever a session ends, so the next fan
 * on this browser starts with no connected site. A site is heard only while it is in the list and the browser still
 * grants its permission (the fan may revoke it in the browser's settings).
 */
export class SiteConnections {
  constructor(
    private readonly sites: ConnectedSites,
    private readonly access: SiteAccess,
    /** Origins the extension itself talks to (proxy, platform): their permissions are never given back. */
    private readonly servicesInUse: () => Promise<string[]>,
    private readonly now: () => number,
    private readonly hooks: Partial<SiteConnectionHooks> = {},
  ) {}

  list(): Promise<ConnectedSite[]> {
    return this.sites.list();
  }

  isConnected(origin: string): Promise<boolean> {
    return this.sites.isConnected(origin);
  }

  /** Whether a page of `origin` is heard: connected and its permission still granted (checked on every request). */
  async isHeard(origin: string): Promise<boolean> {
    return (await this.sites.isConnected(origin)) && (await this.access.hasPermission(origin));
  }

  site(origin: string): Promise<ConnectedSite | undefined> {
    return this.sites.site(origin);
  }

  /** The clubs of the polls a site displayed, once resolved. */
  addClubs(origin: string, clubs: readonly string[]): Promise<ConnectedSite[]> {
    return this.sites.addClubs(origin, clubs);
  }

  /** After the popup obtained the site's host permission in the fan's click. */
  async connect(origin: string): Promise<ConnectedSite[]> {
    if (!(await this.access.hasPermission(origin))) {
      throw new ExtensionError('forbidden', 'Fan Polls was not allowed on this site.');
    }
    const displayed = await (this.hooks.displayedBy?.(origin) ?? Promise.resolve(nothingDisplayed)).catch(
      () => nothingDisplayed,
    );
    const sites = await this.sites.add(origin, this.now(), displayed);
    await this.access.registerBridgeFor(sites.map((site) => site.origin));
    return sites;
  }

  async disconnect(origin: string): Promise<ConnectedSite[]> {
    const sites = await this.sites.remove(origin);
    this.hooks.onSiteEnded?.(origin);
    await this.access.registerBridgeFor(sites.map((site) => site.origin));
    await this.access.releasePermission(origin, [
      ...sites.map((site) => site.origin),
      ...(await this.servicesInUse()),
    ]);
    return sites;
  }

  async forgetAll(): Promise<void> {
    const sites = await this.sites.list();
    await this.sites.clear();
    this.hooks.onSiteEnded?.(undefined);
    await this.access.registerBridgeFor([]);
    const services = await this.servicesInUse();
    for (const site of sites) await this.access.releasePermission(site.origin, services);
  }

  /** On every worker start: the registered page bridge follows the stored list (also where registrations do not persist). */
  async restore(): Promise<void> {
    await this.access.registerBridgeFor((await this.sites.list()).map((site) => site.origin));
  }

  record(origin: string, what: keyof SiteActivity): Promise<void> {
    return this.sites.record(origin, what);
  }
}
