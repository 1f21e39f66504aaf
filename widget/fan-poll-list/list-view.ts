/** The body of `<fan-poll-list>` (in the list's chunk): reads the chosen poll ids, renders the cards. */
import { html, nothing, type TemplateResult } from 'lit';
import { proxyClient } from '../../src/contracts/proxy-client.ts';
import { pollsPath } from '../../src/contracts/proxy-paths.ts';
import { FanPollErrorEvent } from '../events/fan-poll-error-event.ts';
import { en } from '../i18n/en.ts';
import { resolveLanguage } from '../i18n/language.ts';
import { isRecord } from '../../src/contracts/is-record.ts';
import type { CardStrings } from '../i18n/strings.ts';
import { readProxyUrl, widgetConfig } from '../store/widget-config.ts';
import type { ListHost } from './list-host.ts';
import { listQuery } from './poll-filters.ts';

export interface ListView {
  /** Before each render (`willUpdate`): the language, and the poll ids read again when the filters (or proxy) changed. */
  update(): void;
  render(): TemplateResult | typeof nothing;
}

/** A `partner-ids` value no poll on the platform has: a typo, not a quiet day. */
class UnknownPartnerError extends Error {
  override readonly name = 'UnknownPartnerError';
}

/**
 * After an empty answer: each partner id given must have at least one poll, whatever the other filters; one with none
 * is almost surely wrong (the developer hears it, the fans see the empty list).
 */
async function checkPartners(proxyUrl: string, partnerIds: readonly string[]): Promise<void> {
  const unknown: string[] = [];
  for (const id of partnerIds) {
    const query = new URLSearchParams([
      ['partnerIds[]', id],
      ['limit', '1'],
    ]);
    // A check that cannot be made (the proxy refused or did not answer) says nothing about the id.
    const body = await proxyClient(proxyUrl)
      .call(`${pollsPath}?${query}`, { credentials: 'omit' })
      .catch(() => undefined);
    if (body === undefined) return;
    if (isRecord(body) && Array.isArray(body.data) && body.data.length === 0) unknown.push(id);
  }
  if (unknown.length > 0)
    throw new UnknownPartnerError(
      `no poll has the partner id ${unknown.map((id) => `"${id}"`).join(', ')}: check the list's partner-ids.`,
    );
}

export function createListView(host: ListHost): ListView {
  /** The filters (and proxy) of the newest read: an older read's answer, success or failure, changes nothing. */
  let loadedKey = '';
  let strings: CardStrings = en;
  /**
   * Cards that show their poll and something to press. The others wait off-screen behind an empty skeleton, or show
   * a poll with nothing to press: Tab would skip both, so their items are Tab stops.
   */
  const ready = new Set<string>();
  host.addEventListener('fan-poll-ready', (event) => {
    const { pollId } = event.detail;
    const card = [...(host.shadowRoot?.querySelectorAll('fan-poll') ?? [])].find(
      (each) => each.pollId === pollId,
    );
    const control = card?.shadowRoot?.querySelector<HTMLElement>('input:not([disabled]), button');
    // A card with nothing to press (a closed poll, say) keeps its item's Tab stop, so every card is reached.
    if (!control) return;
    ready.add(pollId);
    // A keyboard user who tabbed onto the waiting card's item carries on inside the card itself.
    if (host.shadowRoot?.activeElement === card?.parentElement) control.focus();
    host.requestUpdate();
  });

  async function load(query: URLSearchParams): Promise<readonly string[]> {
    if (host.pollIds) return host.pollIds(query);
    const proxyUrl = readProxyUrl(host.proxy) ?? widgetConfig.proxyUrl;
    if (!proxyUrl) return [];
    // Public and cookie-less, like the cards' reads.
    const body = await proxyClient(proxyUrl).call(`${pollsPath}?${query}`, { credentials: 'omit' });
    const data = isRecord(body) ? body.data : undefined;
    const polls = Array.isArray(data) ? data : isRecord(data) ? [data] : [];
    const ids = polls.flatMap((poll) => (isRecord(poll) && typeof poll.id === 'string' ? [poll.id] : []));
    if (ids.length === 0) await checkPartners(proxyUrl, query.getAll('partnerIds[]'));
    return ids;
  }

  return {
    update() {
      // The language's chunk (imported on first use) before the render, which only reads it.
      strings = resolveLanguage(host).strings;
      const query = listQuery((name) => host.getAttribute(name));
      const key = `${host.proxy ?? ''} ${query}`;
      if (key === loadedKey || !host.isConnected) return;
      loadedKey = key;
      load(query).then(
        (ids) => {
          if (loadedKey === key) host.shownIds = inGivenOrder(ids, host.getAttribute('ids'));
        },
        (error: unknown) => {
          if (loadedKey !== key) return;
          host.shownIds = [];
          const message = error instanceof Error ? error.message : String(error);
          const code = error instanceof UnknownPartnerError ? 'unknown-partner' : 'list-failed';
          if (code === 'unknown-partner') console.error(`Fan Polls: ${message}`);
          host.dispatchEvent(new FanPollErrorEvent({ pollId: '', tracking: host.tracking, code, message }));
        },
      );
    },

    render() {
      const ids = host.shownIds;
      if (!ids) return nothing;
      if (ids.length === 0) return html`<p>${strings.listEmpty}</p>`;
      const tracking = host.tracking;
      // Cards keep their poll id (`poll-id` is what a card resets on), so a plain map is enough here.
      return html`<ul part="list" aria-label=${strings.listLabel}>
        ${ids.map(
          (id) =>
            // A waiting card's item is a Tab stop: focusing it scrolls it near the viewport, which loads the card.
            html`<li part="item" tabindex=${ready.has(id) ? nothing : '0'}>
              <fan-poll
                poll-id=${id}
                proxy=${host.proxy ?? nothing}
                theme=${host.theme ?? nothing}
                lang=${host.getAttribute('lang') ?? nothing}
                ?transparent=${host.transparent}
                results=${host.results ?? nothing}
                referrer=${tracking.referrer ?? nothing}
                campaign=${tracking.campaign ?? nothing}
                param1=${tracking.param1 ?? nothing}
                param2=${tracking.param2 ?? nothing}
                param3=${tracking.param3 ?? nothing}
                .store=${host.store}
              ></fan-poll>
            </li>`,
        )}
      </ul>`;
    },
  };
}

/** The polls in the order the partner listed them in `ids` (the proxy answers in its own order); else as answered. */
function inGivenOrder(ids: readonly string[], given: string | null): readonly string[] {
  const order = (given ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((id) => id.toLowerCase());
  if (order.length === 0) return ids;
  const rank = (id: string): number => {
    const index = order.indexOf(id.toLowerCase());
    return index === -1 ? order.length : index;
  };
  return [...ids].sort((a, b) => rank(a) - rank(b));
}
