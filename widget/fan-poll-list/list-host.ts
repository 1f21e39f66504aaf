import type { TrackingParameters } from '../../src/contracts/bridge-contract.ts';
import type { LivePollStore } from '../store/poll-model.ts';

/** Which polls the list shows, given by the host page (tests, hosts without a proxy). */
export type ListPollIds = (query: URLSearchParams) => Promise<readonly string[]>;

/** What the list's lazily loaded body sees of its element. */
export interface ListHost extends HTMLElement {
  readonly proxy: string | undefined;
  readonly theme: string | undefined;
  readonly transparent: boolean;
  readonly results: string | undefined;
  readonly store: LivePollStore | undefined;
  readonly pollIds: ListPollIds | undefined;
  readonly tracking: TrackingParameters;
  shownIds: readonly string[] | undefined;
  requestUpdate(): void;
}
