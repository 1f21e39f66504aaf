/**
 * `fan-polls/ssr`: a server renders `<fan-poll>` into its page (Lit SSR, declarative shadow DOM) with the poll it read
 * from the proxy; in the browser, the proxy's `fan-polls-hydrate.js` (or `fan-polls/hydrate` in a bundled app) makes
 * the same element live without drawing it again. For Node and other servers: nothing here touches `window`,
 * `location` or the element registry on import.
 */
export { renderFanPoll } from '../ssr/render-fan-poll.ts';
export type { RenderFanPollOptions } from '../ssr/render-options.ts';
export { readPoll } from '../ssr/read-poll.ts';
export { hydrateScriptUrl } from '../ssr/hydrate-script-url.ts';
export type { Poll } from '../../src/platform/types.ts';
