import { parseSiteOrigin } from '../shared/site-origin.ts';

/** The web page the popup was opened over: its tab and its origin (http(s) pages only). */
export interface ActiveSite {
  readonly tabId: number;
  readonly origin: string;
}

interface TabsLike {
  query(query: { active: boolean; currentWindow: boolean }): Promise<{ id?: number; url?: string }[]>;
  get(tabId: number): Promise<{ id?: number; url?: string }>;
}

/**
 * The active tab's site. Opening the popup from the toolbar grants `activeTab`, which is what lets the popup read that
 * tab's address (no `tabs` permission). `popup.html?tab=<id>` names the tab instead (the browser tests open the popup
 * as a page, where the active tab would be the popup itself); it still shows only what the browser lets it read.
 */
export async function activeSite(tabs: TabsLike, search: string): Promise<ActiveSite | undefined> {
  const named = Number(new URLSearchParams(search).get('tab'));
  const tab =
    Number.isSafeInteger(named) && named > 0
      ? await tabs.get(named).catch(() => undefined)
      : (await tabs.query({ active: true, currentWindow: true }))[0];
  if (tab?.id === undefined || tab.url === undefined) return undefined;
  const origin = parseSiteOrigin(tab.url);
  return origin === undefined ? undefined : { tabId: tab.id, origin };
}
