import type { LivePollStore } from './poll-model.ts';

export type StoreFactory = (proxyUrl: string) => LivePollStore;

const stores = new Map<string, LivePollStore>();
let factory: StoreFactory | undefined;

/** The script-tag bundle says how a store is made (live store + proxy source); tests and hosts may say otherwise. */
export function setStoreFactory(make: StoreFactory): void {
  factory = make;
}

/** The page's single live store for one proxy: every card and list on the page that uses the proxy shares it. */
export function pageStore(proxyUrl: string): LivePollStore | undefined {
  let store = stores.get(proxyUrl);
  if (!store && factory) stores.set(proxyUrl, (store = factory(proxyUrl)));
  return store;
}
