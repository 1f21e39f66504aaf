import { isUuid } from '../shared/bridge-shape.ts';
import type { DisplayedPolls } from '../shared/messages.ts';
import { sitePattern } from '../shared/site-origin.ts';
import { originOf } from './sender.ts';

/** The parts of `browser.tabs` and `browser.scripting` used to read what a site's tabs display. */
export interface DisplayedPollsBrowser {
  readonly tabs: { query(query: { url: string }): Promise<{ id?: number; url?: string }[]> };
  readonly scripting: {
    executeScript(injection: {
      target: { tabId: number };
      func: () => { pollIds: string[]; partnerIds: string[] };
    }): Promise<{ result?: unknown }[]>;
  };
}

/**
 * Runs in the page (an isolated world, at connect time): the poll ids of its cards and the partner ids of its lists,
 * open shadow roots included (a list renders its cards there).
 */
function collectDisplayedPolls(): { pollIds: string[]; partnerIds: string[] } {
  const pollIds: string[] = [];
  const partnerIds: string[] = [];
  const visit = (root: Document | ShadowRoot): void => {
    for (const element of root.querySelectorAll('*')) {
      const tag = element.localName;
      if (tag === 'fan-poll') pollIds.push(element.getAttribute('poll-id') ?? '');
      if (tag === 'fan-poll-list') {
        partnerIds.push(...(element.getAttribute('partner-ids') ?? '').split(/[\s,]+/));
        pollIds.push(...(element.getAttribute('ids') ?? '').split(/[\s,]+/));
      }
      if (element.shadowRoot) visit(element.shadowRoot);
    }
  };
  visit(document);
  return { pollIds: pollIds.slice(0, 500), partnerIds: partnerIds.slice(0, 500) };
}

/** What the open tabs of exactly `origin` display now; the page's words are only ids, checked as such. */
export async function displayedPollsOf(
  browser: DisplayedPollsBrowser,
  origin: string,
): Promise<DisplayedPolls> {
  const tabIds = (await browser.tabs.query({ url: sitePattern(origin) })).flatMap((tab) =>
    tab.id !== undefined && tab.url !== undefined && originOf(tab.url) === origin ? [tab.id] : [],
  );
  const pollIds = new Set<string>();
  const partnerIds = new Set<string>();
  for (const tabId of tabIds) {
    const [frame] = await browser.scripting
      .executeScript({ target: { tabId }, func: collectDisplayedPolls })
      .catch(() => []);
    const result = frame?.result as { pollIds?: unknown; partnerIds?: unknown } | undefined;
    for (const id of Array.isArray(result?.pollIds) ? result.pollIds : []) if (isUuid(id)) pollIds.add(id);
    for (const id of Array.isArray(result?.partnerIds) ? result.partnerIds : [])
      if (isUuid(id)) partnerIds.add(id);
  }
  return { pollIds: [...pollIds], partnerIds: [...partnerIds] };
}
