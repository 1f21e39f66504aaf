import { nothing, type TemplateResult } from 'lit';
import { FanElement } from '../base/fan-element.ts';
import type { LivePollStore } from '../store/poll-model.ts';
import {
  cleanTracking,
  trackingParameterNames,
  type TrackingParameters,
} from '../../src/contracts/tracking.ts';
import { listFilterNames, listIdNames } from './list-attributes.ts';
import { listStyles } from './fan-poll-list.styles.ts';
import type { ListHost, ListPollIds } from './list-host.ts';
import { createListView, type ListView } from './list-view.ts';

export type { ListPollIds } from './list-host.ts';

/**
 * The polls chosen by the spec's filters, each a `<fan-poll>` sharing the page's live store. The element and its body
 * (query, fetch, template) are one chunk, imported once the card's code is defined (`define-tags.ts`).
 *
 * @summary A list of live fan polls.
 * @customElement fan-poll-list
 * @attr proxy - The partner proxy's URL (else the script tag's `data-proxy`).
 * @attr search - Part of the question.
 * @attr partner-ids - Partners (clubs), space or comma separated.
 * @attr ids - Poll ids, space or comma separated.
 * @attr quorum-reached - `true` or `false`.
 * @attr bound - `true` or `false`: binding results only, or consultative only.
 * @attr open-from - Opening on or after this date.
 * @attr open-to - Opening on or before this date.
 * @attr close-from - Closing on or after this date.
 * @attr close-to - Closing on or before this date.
 * @attr published-from - Published on or after this date.
 * @attr published-to - Published on or before this date.
 * @attr disclosed-from - Results disclosed on or after this date.
 * @attr disclosed-to - Results disclosed on or before this date.
 * @attr page - Page of results, from 1.
 * @attr limit - Polls per page.
 * @attr order-by - Sort field, as in the spec.
 * @attr direction - `asc` or `desc`.
 * @attr theme - Passed to each card, as are `lang`, `transparent`, `results` and the tracking parameters.
 * @attr results - Who sees an open poll's shares, on each card: `always` (default), `after-vote` or `after-close` (see `<fan-poll>`).
 * @attr referrer - Tracking parameter passed to each card; also `campaign`, `param1`, `param2`, `param3`.
 * @attr transparent - Cards without a background of their own.
 * @fires {FanPollErrorEvent} fan-poll-error - The list could not be read; each card fires its own events. Detail: `pollId` (empty), `tracking`, `code` (`list-failed`), `message`.
 * @csspart list - The list.
 * @csspart item - Each card's list item.
 * @cssproperty [--fan-poll-list-gap=16px] - Space between cards.
 * @cssproperty [--fan-poll-list-min-width=280px] - Narrowest card before the grid drops a column.
 */
export class FanPollList extends FanElement implements ListHost {
  static override styles = listStyles;

  static override properties = {
    proxy: {},
    theme: {},
    transparent: { type: Boolean },
    results: {},
    store: { attribute: false },
    pollIds: { attribute: false },
    shownIds: { state: true },
    // Each filter and tracking attribute is a reactive property of its own name, so that a change reads the list
    // again; the body reads the attributes themselves (`getAttribute`).
    ...Object.fromEntries(
      [...listFilterNames, ...listIdNames, ...trackingParameterNames].map((name) => [
        name,
        { attribute: name },
      ]),
    ),
  };

  declare proxy: string | undefined;
  declare theme: string | undefined;
  declare transparent: boolean;
  declare results: string | undefined;
  declare store: LivePollStore | undefined;
  declare pollIds: ListPollIds | undefined;
  /** @internal The poll ids on show. */
  declare shownIds: readonly string[] | undefined;
  private view: ListView | undefined;

  constructor() {
    super();
    this.transparent = false;
  }

  get tracking(): TrackingParameters {
    return cleanTracking((key) => this.getAttribute(key));
  }

  protected override willUpdate(): void {
    this.view ??= createListView(this);
    this.view.update();
  }

  protected override render(): TemplateResult | typeof nothing {
    return this.view?.render() ?? nothing;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'fan-poll-list': FanPollList;
  }
}
