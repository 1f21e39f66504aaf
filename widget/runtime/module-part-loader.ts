import type { PartLoader } from './parts.ts';

/** Parts as ES modules: for bundlers that split code themselves (apps) and for tests. */
export const modulePartLoader: PartLoader = (name) =>
  ({
    voting: () => import('../fan-poll/fan-voting.ts'),
    list: () => import('../fan-poll-list/list-view.ts'),
    fr: () => import('../i18n/fr.ts'),
    live: () => import('../store/live-proxy-store.ts'),
  })[name]();
