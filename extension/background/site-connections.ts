import { ExtensionError } from '../shared/extension-error.ts';
import type { ConnectedSite, SiteActivity } from '../shared/messages.ts';
import type { ConnectedSites } from './connected-sites.ts';
import type { SiteAccess } from './site-access.ts';

/**
 * Connecting and disconnecting sites: the stored list, the page bridge registered for exactly those sites, and their
 * host permissions. The list belongs to the signed-in fan: `forgetAll` runs whenever a session ends, so the next fan
 * on this browser starts with no connected site.
 */
export class SiteConnections {
  constructor(
    private readonly sites: ConnectedSites,
    private readonly access: SiteAccess,
    /** Origins the extension itself talks to (proxy, platform): their permissions are never given back. */
    private readonly servicesInUse: () => Promise<string[]>,
    private readonly now: () => number,
  ) {}

  list(): Promise<ConnectedSite[]> {
    return this.sites.list();
  }

  isConnected(origin: string): Promise<boolean> {
    return this.sites.isConnected(origin);
  }

  /** After the popup obtained the site's host permission in the fan's click. */
  async connect(origin: string): Promise<ConnectedSite[]> {
    if (!(await this.access.hasPermission(origin))) {
      throw new ExtensionError('forbidden', 'Fan Polls was not allowed on this site.');
    }
    const sites = await this.sites.add(origin, this.now());
    await this.access.registerBridgeFor(sites.map((site) => site.origin));
    return sites;
  }

  async disconnect(origin: string): Promise<ConnectedSite[]> {
    const sites = await this.sites.remove(origin);
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
