import { exactSitePattern, sitePattern } from '../shared/site-origin.ts';

/**
 * What connecting a site means to the browser: the site's host permission (asked for by the popup, in the fan's
 * click) and the page bridge registered as a content script for the connected sites only. No content script runs
 * anywhere else, and the install asks for no access to websites.
 */

/** The parts of `browser.scripting` used here (registered content scripts). */
export interface ScriptingLike {
  getRegisteredContentScripts(filter?: { ids?: string[] }): Promise<{ id: string }[]>;
  registerContentScripts(
    scripts: {
      id: string;
      js: string[];
      matches: string[];
      allFrames: boolean;
      runAt: 'document_start';
    }[],
  ): Promise<unknown>;
  unregisterContentScripts(filter?: { ids?: string[] }): Promise<unknown>;
}

/** The parts of `browser.permissions` used here. */
export interface PermissionsLike {
  contains(permissions: { origins: string[] }): Promise<boolean>;
  remove(permissions: { origins: string[] }): Promise<boolean>;
}

const pageBridgeScriptId = 'fan-polls-page-bridge';

export class SiteAccess {
  constructor(
    private readonly scripting: ScriptingLike,
    private readonly permissions: PermissionsLike,
    /** The page bridge's file in the build. */
    private readonly bridgeFile: string,
    /** Whether content-script patterns may name a port (Chromium yes, Firefox no). */
    private readonly patternsNamePorts = true,
  ) {}

  /** Asked again before every page request: the fan may have revoked the site's access in the browser's settings. */
  hasPermission(origin: string): Promise<boolean> {
    return this.permissions.contains({ origins: [sitePattern(origin)] }).catch(() => false);
  }

  /**
   * Registers the page bridge for exactly these origins, scheme, host and port (none: unregistered). Run after every
   * change and at start. Where patterns cannot name a port (Firefox) the bridge runs on every port of the host, and
   * stays silent there because every answer comes from the background, which hears the exact origin only.
   */
  async registerBridgeFor(origins: readonly string[]): Promise<void> {
    const registered = await this.scripting.getRegisteredContentScripts({ ids: [pageBridgeScriptId] });
    if (registered.length > 0) await this.scripting.unregisterContentScripts({ ids: [pageBridgeScriptId] });
    const matches = [...new Set(origins.map(this.patternsNamePorts ? exactSitePattern : sitePattern))];
    if (matches.length === 0) return;
    await this.scripting.registerContentScripts([
      { id: pageBridgeScriptId, js: [this.bridgeFile], matches, allFrames: true, runAt: 'document_start' },
    ]);
  }

  /**
   * Gives back a site's host permission, unless another connected site or a service the extension talks to (its
   * proxy, the platform) still needs it. Permissions granted at install cannot be removed: that is not an error.
   */
  async releasePermission(origin: string, stillNeeded: readonly string[]): Promise<void> {
    const pattern = sitePattern(origin);
    if (stillNeeded.some((other) => sitePattern(other) === pattern)) return;
    await this.permissions.remove({ origins: [pattern] }).catch(() => false);
  }
}
